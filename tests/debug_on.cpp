// Every test runs on debug contexts — the GL debug context with synchronous debug output, the Khronos
// validation layer — set before main(), so before any context is made (lazily, by the first test
// that needs one). An explicit WINNOW_DEBUG=0 is kept: the GPU machine has no validation layer unless
// one is carried there.
#include <cstdlib>

namespace {
[[maybe_unused]] const bool debug_on = [] { return ::setenv("WINNOW_DEBUG", "1", 0) == 0; }();
} // namespace
