#pragma once
// Warp-level helpers: ballot/popc ranks and shuffle scans (the compactSIMD building blocks of
// Billeter et al. §3.3-3.4 on a 32-wide warp).
#include <cstdint>

namespace winnow::cuda::detail {

inline constexpr unsigned warp_size = 32;
inline constexpr unsigned full_mask = 0xFFFFFFFFu;

__device__ __forceinline__ unsigned lane_id() { return threadIdx.x & (warp_size - 1); }
__device__ __forceinline__ unsigned warp_id() { return threadIdx.x / warp_size; }
/// Bits of the lanes below this one.
__device__ __forceinline__ unsigned lanemask_lt() {
  unsigned m;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
  return m;
}

/// Inclusive Hillis-Steele sum over the warp's lanes (log2 32 = 5 shuffle steps).
__device__ __forceinline__ unsigned warp_inclusive_sum(unsigned v) {
#pragma unroll
  for (unsigned d = 1; d < warp_size; d <<= 1) {
    const unsigned other = __shfl_up_sync(full_mask, v, d);
    if (lane_id() >= d) v += other;
  }
  return v;
}

__device__ __forceinline__ unsigned warp_sum(unsigned v) {
#pragma unroll
  for (unsigned d = warp_size / 2; d > 0; d >>= 1) v += __shfl_xor_sync(full_mask, v, d);
  return v;
}

} // namespace winnow::cuda::detail
