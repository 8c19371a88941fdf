#pragma once
// Elements of 32, 64 and 128 bits (std::uint32_t, uint2, uint4) as the kernels move them: a 16-byte
// vector split into its elements in registers, and an element's payload (its first 32-bit word,
// 0 = invalid).
#include <cstdint>

namespace winnow::cuda::detail {

__device__ __forceinline__ std::uint32_t payload(std::uint32_t e) { return e; }
__device__ __forceinline__ std::uint32_t payload(const uint2& e) { return e.x; }
__device__ __forceinline__ std::uint32_t payload(const uint4& e) { return e.x; }

/// A 16-byte load as elements (register moves; no aliasing through local memory).
__device__ __forceinline__ void unpack(const uint4& raw, std::uint32_t (&v)[4]) {
  v[0] = raw.x;
  v[1] = raw.y;
  v[2] = raw.z;
  v[3] = raw.w;
}
__device__ __forceinline__ void unpack(const uint4& raw, uint2 (&v)[2]) {
  v[0] = make_uint2(raw.x, raw.y);
  v[1] = make_uint2(raw.z, raw.w);
}
__device__ __forceinline__ void unpack(const uint4& raw, uint4 (&v)[1]) { v[0] = raw; }

} // namespace winnow::cuda::detail
