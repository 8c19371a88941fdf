#pragma once
// The dispatch layer of kernels/single_pass.cu: the paper's single-block O(n) competitor. Host-
// callable functions that size and launch the kernels (CUB's device → dispatch → agent); every
// pointer is a device pointer (d_ prefix), every launch goes to `stream` and is checked.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace winnow::cuda {

/// Marks R on one block of 1024 threads.
void single_pass_mark(std::uint32_t* d_a, const std::uint32_t* d_r, std::size_t k, cudaStream_t stream);
/// Stable in-place compaction on one block; the count goes to *d_count.
void single_pass_move(std::uint32_t* d_a, std::size_t n, unsigned long long* d_count, cudaStream_t stream);

} // namespace winnow::cuda
