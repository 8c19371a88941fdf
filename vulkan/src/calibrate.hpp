#pragma once
#include <vector>

#include "winnow/registry.hpp"

namespace winnow::vk {
/// Dispatch cost and copy-pass bandwidth of the device (`winnow calibrate`).
[[nodiscard]] std::vector<calibration> calibrate();
/// The same constants for the fragment path (vkfrag): a fragment pass's cost and copy bandwidth.
[[nodiscard]] std::vector<calibration> fragment_calibrate();
} // namespace winnow::vk
