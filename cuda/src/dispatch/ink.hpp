#pragma once
// The dispatch layer of kernels/ink.cu: the InK-style three kernels. Host-callable functions that
// size and launch the kernels (CUB's device → dispatch → agent); every pointer is a device pointer
// (d_ prefix), every launch goes to `stream` and is checked.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace winnow::cuda {

void ink_block_counts(const std::uint32_t* d_a, std::size_t n, unsigned block, std::uint32_t* d_counts,
                      cudaStream_t stream);
void ink_move(const std::uint32_t* d_a, std::size_t n, unsigned block, const std::uint32_t* d_offsets,
              std::uint32_t* d_out, cudaStream_t stream);
/// InK-Compact's single kernel: *d_count zeroed, then every block appends its valid elements at an
/// offset taken by atomicAdd on *d_count (blocks in arrival order: unstable).
void ink_atomic(const std::uint32_t* d_a, std::size_t n, unsigned block, std::uint32_t* d_out,
                unsigned long long* d_count, cudaStream_t stream);
/// Writes *d_count = offsets[last] + counts[last].
void ink_total(const std::uint32_t* d_counts, const std::uint32_t* d_offsets, std::size_t blocks,
               unsigned long long* d_count, cudaStream_t stream);

} // namespace winnow::cuda
