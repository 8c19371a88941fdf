#pragma once
// The dispatch layer of kernels/preserve.cu: compaction from a preserve list. Every pointer is a
// device pointer; the launch goes to `stream` and is checked.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace winnow::cuda {

/// d_out[i] = d_a[d_p[i]] for i < p (d_p and d_out from cudaMalloc: 16-byte aligned).
void launch_gather(std::uint32_t* d_out, const std::uint32_t* d_a, const std::uint32_t* d_p, std::size_t p,
                   cudaStream_t stream);

} // namespace winnow::cuda
