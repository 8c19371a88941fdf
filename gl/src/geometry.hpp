#pragma once
// gl/geometry: compaction by a geometry shader and transform feedback (geometry.cpp).
#include "winnow/registry.hpp"

namespace winnow::gl {

[[nodiscard]] algorithm_entry geometry_entry();

} // namespace winnow::gl
