#pragma once
#include "winnow/registry.hpp"

namespace winnow {

/// The registry of this build: every backend that was built, and the others as unavailable.
[[nodiscard]] const registry& all_backends();

} // namespace winnow
