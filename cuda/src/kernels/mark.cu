// The marking phase (R → payload 0 or flag 0) that every predicate algorithm runs on removal-list
// cases (the Redzone paper's apples-to-apples comparison), and small element-wise maps.
#include "../check.hpp"
#include "../dispatch/mark.hpp"
#include "block.cuh"
#include "launch.cuh"

namespace winnow::cuda {
namespace {

using detail::global_thread;
using detail::grid_threads;

/// R is read four indices at a time (16-byte loads: R comes from cudaMalloc, so it is aligned);
/// the writes are scattered by nature.
template <class Store> __global__ void mark_kernel(const std::uint32_t* __restrict__ r, std::size_t k, Store store) {
  const std::size_t quads = k / 4;
  const auto* r4 = reinterpret_cast<const uint4*>(r);
  for (std::size_t q = global_thread(); q < quads; q += grid_threads()) {
    const uint4 v = __ldcs(r4 + q); // streamed: R is read once
    store(v.x);
    store(v.y);
    store(v.z);
    store(v.w);
  }
  for (std::size_t i = 4 * quads + global_thread(); i < k; i += grid_threads()) store(r[i]);
}

struct store_payload {
  std::uint32_t* a;
  unsigned words;
  __device__ void operator()(std::uint32_t i) const { a[static_cast<std::size_t>(i) * words] = 0; }
};
struct store_flag {
  std::uint8_t* flags;
  __device__ void operator()(std::uint32_t i) const { flags[i] = 0; }
};

__global__ void flags_kernel(std::uint8_t* __restrict__ flags, const std::uint32_t* __restrict__ a, std::size_t n) {
  for (std::size_t i = global_thread(); i < n; i += grid_threads()) flags[i] = a[i] != 0;
}

__global__ void index_payloads_kernel(std::uint32_t* __restrict__ a, std::size_t n) {
  for (std::size_t i = global_thread(); i < n; i += grid_threads()) a[i] = static_cast<std::uint32_t>(i + 1);
}

__global__ void hashed_payloads_kernel(std::uint32_t* __restrict__ a, std::size_t n, std::uint32_t keep) {
  for (std::size_t i = global_thread(); i < n; i += grid_threads()) {
    // Murmur3's 32-bit finalizer: neighbouring indices get unrelated hashes.
    auto h = static_cast<std::uint32_t>(i) ^ static_cast<std::uint32_t>(i >> 32) * 0x9E3779B9u;
    h = (h ^ (h >> 16)) * 0x85EBCA6Bu;
    h = (h ^ (h >> 13)) * 0xC2B2AE35u;
    h ^= h >> 16;
    a[i] = h < keep ? static_cast<std::uint32_t>(i + 1) : 0u;
  }
}

__global__ void widen_kernel(std::uint32_t* __restrict__ wide, unsigned words,
                             const std::uint32_t* __restrict__ payload, std::size_t n) {
  for (std::size_t i = global_thread(); i < n; i += grid_threads()) {
    const std::uint32_t p = payload[i];
    wide[i * words] = p;
    for (unsigned w = 1; w < words; ++w) wide[i * words + w] = widen_word(p, w);
  }
}

} // namespace

void launch_mark(std::uint32_t* d_a, unsigned words, const std::uint32_t* d_r, std::size_t k, cudaStream_t stream) {
  if (k == 0) return;
  mark_kernel<<<detail::stream_grid((k + 3) / 4), tuning::stream_block, 0, stream>>>(d_r, k, store_payload{d_a, words});
  check_launch("winnow::cuda::mark_kernel", stream);
}

void launch_mark_flags(std::uint8_t* d_flags, const std::uint32_t* d_r, std::size_t k, cudaStream_t stream) {
  if (k == 0) return;
  mark_kernel<<<detail::stream_grid((k + 3) / 4), tuning::stream_block, 0, stream>>>(d_r, k, store_flag{d_flags});
  check_launch("winnow::cuda::mark_kernel(flags)", stream);
}

void launch_flags(std::uint8_t* d_flags, const std::uint32_t* d_a, std::size_t n, cudaStream_t stream) {
  if (n == 0) return;
  flags_kernel<<<detail::stream_grid(n), tuning::stream_block, 0, stream>>>(d_flags, d_a, n);
  check_launch("winnow::cuda::flags_kernel", stream);
}

void launch_index_payloads(std::uint32_t* d_a, std::size_t n, cudaStream_t stream) {
  if (n == 0) return;
  index_payloads_kernel<<<detail::stream_grid(n), tuning::stream_block, 0, stream>>>(d_a, n);
  check_launch("winnow::cuda::index_payloads_kernel", stream);
}

void launch_hashed_payloads(std::uint32_t* d_a, std::size_t n, std::uint32_t keep, cudaStream_t stream) {
  if (n == 0) return;
  hashed_payloads_kernel<<<detail::stream_grid(n), tuning::stream_block, 0, stream>>>(d_a, n, keep);
  check_launch("winnow::cuda::hashed_payloads_kernel", stream);
}

void launch_widen(std::uint32_t* d_wide, unsigned words, const std::uint32_t* d_payload, std::size_t n,
                  cudaStream_t stream) {
  if (n == 0) return;
  widen_kernel<<<detail::stream_grid(n), tuning::stream_block, 0, stream>>>(d_wide, words, d_payload, n);
  check_launch("winnow::cuda::widen_kernel", stream);
}

} // namespace winnow::cuda
