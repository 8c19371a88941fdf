#pragma once
// The vk backend's registry entries, one per file.
#include "winnow/registry.hpp"

namespace winnow::vk {
algorithm_entry horn_entry();
algorithm_entry jumping_jack_entry();
algorithm_entry rlz_entry();
algorithm_entry binary_tree_entry();
algorithm_entry ballot_entry();
} // namespace winnow::vk
