#pragma once
#include <vector>

#include "winnow/registry.hpp"

namespace winnow::vk {
/// Dispatch cost and copy-pass bandwidth of the device (`winnow calibrate`).
[[nodiscard]] std::vector<calibration> calibrate();
} // namespace winnow::vk
