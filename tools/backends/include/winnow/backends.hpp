#pragma once
#include <functional>

#include "winnow/registry.hpp"

namespace winnow {

/// The registry of this build: every backend that was built, and the others as unavailable.
[[nodiscard]] const registry& all_backends();

/// Has all_backends() call `add` on its registry after the backends have registered: a program's own
/// algorithms. Call before the first all_backends() (from a static initializer, say). Only the tests
/// use it: the `winnow` of tests/faults adds algorithms that lose their context on purpose.
void extend_all_backends(std::function<void(registry&)> add);

} // namespace winnow
