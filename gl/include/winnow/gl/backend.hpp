#pragma once
#include "winnow/registry.hpp"

namespace winnow::gl {
/// Adds the `gl` backend: horn, jj, rlz and bt (block-based, with line-rendered concatenation).
void register_backend(registry& r);
} // namespace winnow::gl
