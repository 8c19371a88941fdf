// Every Vulkan test runs with the Khronos validation layer: set before main(), so before the
// device is created (lazily, by the first test that needs it). An explicit WINNOW_VK_VALIDATION=0
// is kept: the GPU machine has no layer unless one is carried there (vulkan/device_run.sh).
#include <cstdlib>

namespace {
[[maybe_unused]] const bool validation_on = [] { return ::setenv("WINNOW_VK_VALIDATION", "1", 0) == 0; }();
} // namespace
