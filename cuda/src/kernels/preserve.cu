// cuda/preserve's one kernel: out[i] = a[p[i]]. P and out move in 16-byte accesses, two of each in
// flight per thread; the reads of A are scattered by nature (one sector per survivor unless P's
// order brings neighbours together).
#include "../check.hpp"
#include "../dispatch/preserve.hpp"
#include "block.cuh"
#include "launch.cuh"

namespace winnow::cuda {
namespace {

using detail::global_thread;
using detail::grid_threads;

__global__ void gather_kernel(std::uint32_t* __restrict__ out, const std::uint32_t* __restrict__ a,
                              const std::uint32_t* __restrict__ p, std::size_t count) {
  const std::size_t quads = count / 4;
  const auto* p4 = reinterpret_cast<const uint4*>(p);
  auto* out4 = reinterpret_cast<uint4*>(out);
  const std::size_t stride = grid_threads();
  std::size_t q = global_thread();
  for (; q + stride < quads; q += 2 * stride) {
    const uint4 x = __ldcs(p4 + q), y = __ldcs(p4 + q + stride); // streamed: P is read once
    out4[q] = make_uint4(a[x.x], a[x.y], a[x.z], a[x.w]);
    out4[q + stride] = make_uint4(a[y.x], a[y.y], a[y.z], a[y.w]);
  }
  if (q < quads) {
    const uint4 x = __ldcs(p4 + q);
    out4[q] = make_uint4(a[x.x], a[x.y], a[x.z], a[x.w]);
  }
  for (std::size_t i = 4 * quads + global_thread(); i < count; i += stride) out[i] = a[p[i]];
}

} // namespace

void launch_gather(std::uint32_t* d_out, const std::uint32_t* d_a, const std::uint32_t* d_p, std::size_t p,
                   cudaStream_t stream) {
  if (p == 0) return;
  gather_kernel<<<detail::stream_grid((p + 3) / 4), tuning::stream_block, 0, stream>>>(d_out, d_a, d_p, p);
  check_launch("winnow::cuda::preserve gather_kernel", stream);
}

} // namespace winnow::cuda
