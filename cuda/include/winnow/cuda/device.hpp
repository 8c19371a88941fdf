#pragma once
/// The CUDA device winnow runs on: probed once, without throwing, so a machine with nvcc but no GPU
/// (CI) lists the backend as unavailable with the reason.
#include <optional>
#include <string>

#include "winnow/registry.hpp"

namespace winnow::cuda {

/// Why CUDA cannot run here — "no CUDA device (cudaErrorNoDevice)", "no CUDA device
/// (cudaErrorInsufficientDriver: …)" — or nothing when device 0 is usable.
[[nodiscard]] std::optional<std::string> unavailable_reason();

/// Device name, compute capability, SMs, L2; CUDA driver and runtime versions. Throws
/// winnow::unavailable when there is no device.
[[nodiscard]] device_info describe_device();

} // namespace winnow::cuda
