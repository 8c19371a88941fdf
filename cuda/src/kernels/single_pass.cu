// The Redzone paper's single-block O(n) competitor (§5.1, Fig. 5): InK's move on one block of
// 1024 threads, without InK's extra counting read — one pass over A, stable, in place. In place is
// safe on one block: a tile is read completely (barrier) before any of it is written, and an
// element is only ever written at or before the position it was read from.
#include "../check.hpp"
#include "../dispatch/single_pass.hpp"
#include "../tuning.hpp"
#include "block.cuh"

namespace winnow::cuda {
namespace {

using detail::lane_id;
using detail::lanemask_lt;
using detail::warp_id;

__global__ void __launch_bounds__(tuning::single_block)
    mark_kernel(std::uint32_t* a, const std::uint32_t* r, std::size_t k) {
  for (std::size_t i = threadIdx.x; i < k; i += blockDim.x) a[r[i]] = 0;
}

__global__ void __launch_bounds__(tuning::single_block)
    move_kernel(std::uint32_t* a, std::size_t n, unsigned long long* count) {
  constexpr int B = tuning::single_block;
  constexpr int I = tuning::single_items;
  constexpr int TILE = B * I;
  constexpr int W = B / 32;
  __shared__ unsigned warp_total[I][W], warp_offset[I][W];
  __shared__ unsigned tile_total;
  std::size_t out = 0;
  for (std::size_t base = 0; base < n; base += TILE) {
    std::uint32_t x[I];
    unsigned rank[I];
#pragma unroll
    for (int q = 0; q < I; ++q) {
      const std::size_t i = base + static_cast<std::size_t>(q * B) + threadIdx.x;
      x[q] = i < n ? a[i] : 0u;
      const unsigned ballot = __ballot_sync(detail::full_mask, x[q] != 0);
      rank[q] = __popc(ballot & lanemask_lt());
      if (lane_id() == 0) warp_total[q][warp_id()] = __popc(ballot);
    }
    __syncthreads(); // the whole tile is read before anything is written
    if (warp_id() == 0) {
      // Output order is index order: item slot q before q + 1, warp w before w + 1.
      unsigned carry = 0;
#pragma unroll
      for (int q = 0; q < I; ++q) {
        const unsigned v = warp_total[q][lane_id()];
        const unsigned inclusive = detail::warp_inclusive_sum(v);
        warp_offset[q][lane_id()] = carry + inclusive - v;
        carry += __shfl_sync(detail::full_mask, inclusive, 31);
      }
      if (lane_id() == 0) tile_total = carry;
    }
    __syncthreads();
#pragma unroll
    for (int q = 0; q < I; ++q)
      if (x[q] != 0) a[out + warp_offset[q][warp_id()] + rank[q]] = x[q];
    out += tile_total;
    __syncthreads(); // shared arrays are rewritten by the next tile
  }
  if (threadIdx.x == 0) *count = out;
}

} // namespace

void single_pass_mark(std::uint32_t* d_a, const std::uint32_t* d_r, std::size_t k, cudaStream_t stream) {
  if (k == 0) return;
  mark_kernel<<<1, tuning::single_block, 0, stream>>>(d_a, d_r, k);
  check_launch("winnow::cuda::single_pass mark_kernel", stream);
}

void single_pass_move(std::uint32_t* d_a, std::size_t n, unsigned long long* d_count, cudaStream_t stream) {
  move_kernel<<<1, tuning::single_block, 0, stream>>>(d_a, n, d_count);
  check_launch("winnow::cuda::single_pass move_kernel", stream);
}

} // namespace winnow::cuda
