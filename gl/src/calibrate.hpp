#pragma once
#include <vector>

#include "winnow/registry.hpp"

namespace winnow::gl {
/// Empty-pass cost and copy-pass bandwidth of this context's device.
[[nodiscard]] std::vector<calibration> calibrate();
} // namespace winnow::gl
