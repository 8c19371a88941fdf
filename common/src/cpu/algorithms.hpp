#pragma once
// The CPU backend's registry entries, one per file.
#include "winnow/registry.hpp"

namespace winnow::cpu {
algorithm_entry sequential_entry();
algorithm_entry remove_if_entry();
algorithm_entry par_remove_if_entry();
algorithm_entry redzone_entry();
algorithm_entry stencil_entry();
algorithm_entry scan_compact_entry();
algorithm_entry preserve_entry();
} // namespace winnow::cpu
