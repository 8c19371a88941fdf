#pragma once
/// Process-wide settings that the GPU backends read when they create their context or device, and
/// the environment variables winnow reads — each validated, so a bad value is a usage error (exit 2)
/// naming the variable, never a silent default.
///
///   WINNOW_DEBUG=0|1         debug contexts: the GL debug context with synchronous debug output,
///                            the Khronos validation layer on Vulkan (the tests set it; `--debug`
///                            sets it for the CLI). Off by default: benchmarks run on plain contexts.
///   WINNOW_VK_PIPELINE_STATS=0|1  every Vulkan pipeline, as it is created, prints the driver's
///                            statistics of its compiled code to stderr (registers, shared memory,
///                            spills, instructions: whatever VK_KHR_pipeline_executable_properties
///                            offers), to compare a kernel's build across APIs. Off by default.
///   WINNOW_CUDA_HOLD=0|1     CUDA runs queued behind a hold kernel, so their launches run back to
///                            back (cuda/src/event_timer.hpp). Off by default.
///   WINNOW_VK_TIMEOUT_MS=N   how long a Vulkan submission may run before it is an error (1 … 3600000,
///                            default 60000).
#include <cstdint>
#include <optional>
#include <string_view>

namespace winnow {

/// WINNOW_DEBUG, unless set_debug() was called first. Read once; the answer never changes after
/// a backend asked (a context cannot change kind).
[[nodiscard]] bool debug_enabled();
/// Chooses debug contexts for this process (the CLI's --debug). Throws winnow::error when a backend
/// already read the setting and it would change.
void set_debug(bool on);

/// An environment variable holding 0 or 1; nothing when unset or empty. Throws usage_error otherwise.
[[nodiscard]] std::optional<bool> env_flag(std::string_view name);
/// An environment variable holding an integer in [min, max]; nothing when unset or empty. Throws
/// usage_error naming the variable and the range otherwise.
[[nodiscard]] std::optional<std::int64_t> env_integer(std::string_view name, std::int64_t min, std::int64_t max);

} // namespace winnow
