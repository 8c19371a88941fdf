#pragma once
// Block-level helpers built on the warp ones.
#include "warp.cuh"

namespace winnow::cuda::detail {

/// Exclusive sum over the block of one value per thread; every thread gets the block total.
/// `warp_sums` is shared memory of at least BLOCK / 32 + 1 values. Ends with a __syncthreads, so
/// every thread's reads before the call are complete before any thread's writes after it.
template <int BLOCK>
__device__ __forceinline__ unsigned block_exclusive_sum(unsigned v, unsigned* warp_sums, unsigned& total) {
  constexpr int warps = BLOCK / 32;
  const unsigned inclusive = warp_inclusive_sum(v);
  if (lane_id() == warp_size - 1) warp_sums[warp_id()] = inclusive;
  __syncthreads();
  if (warp_id() == 0) {
    const unsigned w = lane_id() < warps ? warp_sums[lane_id()] : 0u;
    const unsigned w_inclusive = warp_inclusive_sum(w);
    if (lane_id() < warps) warp_sums[lane_id()] = w_inclusive - w;
    if (lane_id() == warps - 1) warp_sums[warps] = w_inclusive;
  }
  __syncthreads();
  const unsigned result = warp_sums[warp_id()] + inclusive - v;
  total = warp_sums[warps];
  __syncthreads(); // warp_sums may be reused by the caller right away
  return result;
}

/// Sum over the block (every thread gets it). Same shared-memory contract as above.
template <int BLOCK> __device__ __forceinline__ unsigned block_sum(unsigned v, unsigned* warp_sums) {
  unsigned total;
  (void)block_exclusive_sum<BLOCK>(v, warp_sums, total);
  return total;
}

/// Grid-stride loop bounds in 64 bits (streams reach 2^32 − 1 elements).
__device__ __forceinline__ std::size_t global_thread() {
  return static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}
__device__ __forceinline__ std::size_t grid_threads() { return static_cast<std::size_t>(gridDim.x) * blockDim.x; }

} // namespace winnow::cuda::detail
