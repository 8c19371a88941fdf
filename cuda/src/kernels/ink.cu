// InK-style compaction as the blog post describes it (after Hughes et al. 2013), out of place:
//   count  one element per thread; __syncthreads_count gives each block its valid count;
//   scan   exclusive sum of the block counts (CUB, where the post uses thrust);
//   move   ballot/popc ranks inside the warp, a ballot-per-bit scan of the warp totals, the block
//          offset: out[rank + warp offset + block offset] = x.
// The post's warp-total scan loops over log2(32) = 5 bits, but a full warp's total is 32 = 2^5 and
// needs a sixth: we scan 6 bits. The in-place version that circulates reads and writes the same
// array from different blocks without ordering, a race: hence out of place.
#include "../check.hpp"
#include "../dispatch/ink.hpp"
#include "block.cuh"

namespace winnow::cuda {
namespace {

using detail::full_mask;
using detail::lane_id;
using detail::lanemask_lt;
using detail::warp_id;

__global__ void counts_kernel(const std::uint32_t* __restrict__ a, std::size_t n, std::uint32_t* __restrict__ counts) {
  const std::size_t idx = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int pred = idx < n && a[idx] != 0;
  const int bc = __syncthreads_count(pred);
  if (threadIdx.x == 0) counts[blockIdx.x] = static_cast<std::uint32_t>(bc);
}

/// The rank of this thread's element among its block's valid ones (`pred`): ballot/popc inside the
/// warp, then a ballot-per-bit scan of the warp totals (`warp_totals`: one word per warp, shared).
__device__ unsigned block_rank(unsigned pred, unsigned* warp_totals) {
  const unsigned t_m = lanemask_lt();
  const unsigned t_u = __popc(__ballot_sync(full_mask, pred) & t_m);
  if (lane_id() == 31) warp_totals[warp_id()] = t_u + pred;
  __syncthreads();
  const unsigned warps = blockDim.x / 32;
  if (warp_id() == 0) {
    const unsigned total = lane_id() < warps ? warp_totals[lane_id()] : 0u;
    unsigned w_i_u = 0;
    for (unsigned j = 0; j < 6; ++j) { // bit j of every warp's total, one ballot per bit
      const unsigned b_j = __ballot_sync(full_mask, total & (1u << j));
      w_i_u += __popc(b_j & t_m) << j;
    }
    __syncwarp();
    if (lane_id() < warps) warp_totals[lane_id()] = w_i_u;
  }
  __syncthreads();
  return t_u + warp_totals[warp_id()];
}

__global__ void move_kernel(const std::uint32_t* __restrict__ a, std::size_t n,
                            const std::uint32_t* __restrict__ offsets, std::uint32_t* __restrict__ out) {
  extern __shared__ unsigned warp_totals[];
  const std::size_t idx = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::uint32_t x = idx < n ? a[idx] : 0u;
  const unsigned pred = x != 0;
  const unsigned rank = block_rank(pred, warp_totals);
  if (pred) out[rank + offsets[blockIdx.x]] = x;
}

/// InK-Compact's one kernel: the block counts its valid elements, takes the next free range of the
/// output with one atomicAdd on the running count, and moves them there by rank. Ranges go to blocks
/// in the order they reach the atomic: stable inside a block, not across blocks.
__global__ void atomic_kernel(const std::uint32_t* __restrict__ a, std::size_t n, std::uint32_t* __restrict__ out,
                              unsigned long long* count) {
  extern __shared__ unsigned warp_totals[];
  __shared__ unsigned long long base;
  const std::size_t idx = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::uint32_t x = idx < n ? a[idx] : 0u;
  const unsigned pred = x != 0;
  const int total = __syncthreads_count(static_cast<int>(pred));
  if (threadIdx.x == 0) base = total ? atomicAdd(count, static_cast<unsigned long long>(total)) : 0ull;
  const unsigned rank = block_rank(pred, warp_totals); // its barriers publish `base` too
  if (pred) out[base + rank] = x;
}

__global__ void total_kernel(const std::uint32_t* counts, const std::uint32_t* offsets, std::size_t blocks,
                             unsigned long long* count) {
  *count = static_cast<unsigned long long>(offsets[blocks - 1]) + counts[blocks - 1];
}

} // namespace

void ink_block_counts(const std::uint32_t* d_a, std::size_t n, unsigned block, std::uint32_t* d_counts,
                      cudaStream_t stream) {
  const auto blocks = static_cast<unsigned>((n + block - 1) / block);
  counts_kernel<<<blocks, block, 0, stream>>>(d_a, n, d_counts);
  check_launch("winnow::cuda::ink counts_kernel", stream);
}

void ink_move(const std::uint32_t* d_a, std::size_t n, unsigned block, const std::uint32_t* d_offsets,
              std::uint32_t* d_out, cudaStream_t stream) {
  const auto blocks = static_cast<unsigned>((n + block - 1) / block);
  move_kernel<<<blocks, block, block / 32 * sizeof(unsigned), stream>>>(d_a, n, d_offsets, d_out);
  check_launch("winnow::cuda::ink move_kernel", stream);
}

void ink_atomic(const std::uint32_t* d_a, std::size_t n, unsigned block, std::uint32_t* d_out,
                unsigned long long* d_count, cudaStream_t stream) {
  WINNOW_CUDA_CHECK(cudaMemsetAsync(d_count, 0, sizeof *d_count, stream));
  const auto blocks = static_cast<unsigned>((n + block - 1) / block);
  atomic_kernel<<<blocks, block, block / 32 * sizeof(unsigned), stream>>>(d_a, n, d_out, d_count);
  check_launch("winnow::cuda::ink atomic_kernel", stream);
}

void ink_total(const std::uint32_t* d_counts, const std::uint32_t* d_offsets, std::size_t blocks,
               unsigned long long* d_count, cudaStream_t stream) {
  total_kernel<<<1, 1, 0, stream>>>(d_counts, d_offsets, blocks, d_count);
  check_launch("winnow::cuda::ink total_kernel", stream);
}

} // namespace winnow::cuda
