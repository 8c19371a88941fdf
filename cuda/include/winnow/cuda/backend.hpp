#pragma once
#include "winnow/registry.hpp"

namespace winnow::cuda {
/// Adds the `cuda` backend: redzone1, single_pass, redzone2, billeter, billeter_scan,
/// billeter_split, ink, scan_naive, scan_efficient, cub_if, cub_flagged, thrust_copy_if,
/// thrust_remove_if. Without a device it is listed as unavailable with the reason
/// ("no CUDA device (cudaErrorNoDevice)").
void register_backend(registry& r);
} // namespace winnow::cuda
