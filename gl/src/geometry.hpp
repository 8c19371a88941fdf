#pragma once
// gl/geometry: compaction by a geometry shader and transform feedback (geometry.cpp).
#include <vector>

#include "winnow/registry.hpp"

namespace winnow::gl {

[[nodiscard]] algorithm_entry geometry_entry();

/// What gl/geometry's draw costs at 4M, taken apart: the vertex stage alone into transform feedback,
/// and gl/geometry's two stages with every point emitted and with none (gl calibrate; desktop GL only).
/// A software device (llvmpipe) takes fewer runs of each draw (geometry.cpp).
[[nodiscard]] std::vector<calibration> feedback_calibration(bool software_device);

} // namespace winnow::gl
