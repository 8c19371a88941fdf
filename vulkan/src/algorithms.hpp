#pragma once
// The vk backend's own algorithms (the shader-era four come from the shared frame).
#include "winnow/registry.hpp"

namespace winnow::vk {
algorithm_entry ballot_entry();
algorithm_entry lookback_entry();
} // namespace winnow::vk
