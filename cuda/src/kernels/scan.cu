// Map → scan → scatter compaction (CIS 565 style), with two global scans over the valid flags:
// Hillis-Steele (one pass per doubling offset, O(n log n) work, ping-pong buffers) and Blelloch
// (an up-sweep and a down-sweep per block in shared memory, the block totals scanned the same way
// one level up, then added back: O(n) work). Any n: reads past n count as 0.
#include <string>

#include "../check.hpp"
#include "../dispatch/scan.hpp"
#include "block.cuh"
#include "launch.cuh"

namespace winnow::cuda {
namespace {

using detail::global_thread;
using detail::grid_threads;

__global__ void map_kernel(std::uint32_t* __restrict__ flags, const std::uint32_t* __restrict__ a, std::size_t n) {
  for (std::size_t i = global_thread(); i < n; i += grid_threads()) flags[i] = a[i] != 0;
}

__global__ void hillis_kernel(std::uint32_t* __restrict__ out, const std::uint32_t* __restrict__ in, std::size_t n,
                              std::size_t offset) {
  for (std::size_t i = global_thread(); i < n; i += grid_threads())
    out[i] = in[i] + (i >= offset ? in[i - offset] : 0u);
}

/// Shared-memory index with one pad word per 32, so the tree's strided accesses avoid bank
/// conflicts (GPU Gems 3, ch. 39).
__device__ __forceinline__ int padded(int i) { return i + (i >> 5); }

/// SB threads scan SE = 2 SB elements.
template <int SB>
__global__ void __launch_bounds__(SB)
    blelloch_kernel(std::uint32_t* out, const std::uint32_t* in, std::uint32_t* sums, std::size_t n) {
  constexpr int SE = 2 * SB;
  __shared__ std::uint32_t temp[SE + SE / 32];
  const std::size_t base = static_cast<std::size_t>(blockIdx.x) * SE;
  const int ai = static_cast<int>(threadIdx.x), bi = ai + SB;
  temp[padded(ai)] = base + ai < n ? in[base + ai] : 0u;
  temp[padded(bi)] = base + bi < n ? in[base + bi] : 0u;
  int offset = 1;
  for (int d = SE >> 1; d > 0; d >>= 1) { // up-sweep: partial sums up the tree
    __syncthreads();
    if (ai < d) {
      const int a = offset * (2 * ai + 1) - 1, b = offset * (2 * ai + 2) - 1;
      temp[padded(b)] += temp[padded(a)];
    }
    offset <<= 1;
  }
  if (ai == 0) {
    if (sums) sums[blockIdx.x] = temp[padded(SE - 1)];
    temp[padded(SE - 1)] = 0;
  }
  for (int d = 1; d < SE; d <<= 1) { // down-sweep: exclusive sums back down
    offset >>= 1;
    __syncthreads();
    if (ai < d) {
      const int a = offset * (2 * ai + 1) - 1, b = offset * (2 * ai + 2) - 1;
      const std::uint32_t t = temp[padded(a)];
      temp[padded(a)] = temp[padded(b)];
      temp[padded(b)] += t;
    }
  }
  __syncthreads();
  if (base + ai < n) out[base + ai] = temp[padded(ai)];
  if (base + bi < n) out[base + bi] = temp[padded(bi)];
}

__global__ void add_sums_kernel(std::uint32_t* __restrict__ out, const std::uint32_t* __restrict__ sums, std::size_t n,
                                unsigned per_block) {
  for (std::size_t i = global_thread(); i < n; i += grid_threads()) out[i] += sums[i / per_block];
}

template <int SB>
void blelloch_as(std::uint32_t* d_out, const std::uint32_t* d_in, std::uint32_t* d_sums, std::size_t n,
                 cudaStream_t stream) {
  const auto blocks = static_cast<unsigned>((n + 2 * SB - 1) / (2 * SB));
  blelloch_kernel<SB><<<blocks, SB, 0, stream>>>(d_out, d_in, d_sums, n);
  check_launch("winnow::cuda::blelloch_kernel", stream);
}

__global__ void scatter_kernel(std::uint32_t* __restrict__ out, const std::uint32_t* __restrict__ a,
                               const std::uint32_t* __restrict__ prefix, std::size_t n, bool inclusive,
                               unsigned long long* count) {
  for (std::size_t i = global_thread(); i < n; i += grid_threads()) {
    const std::uint32_t x = a[i];
    const std::uint32_t at = inclusive ? prefix[i] - 1 : prefix[i]; // only used when x != 0
    if (x != 0) out[at] = x;
    if (i == n - 1) *count = inclusive ? prefix[i] : prefix[i] + (x != 0);
  }
}

} // namespace

std::size_t blelloch_block_elements(unsigned block) { return 2 * std::size_t{block}; }

void check_scan_block(unsigned block) {
  if (block < 32 || block > 1024 || (block & (block - 1)) != 0)
    throw error("winnow::cuda::scan: a block of " + std::to_string(block) + " threads (a power of two, 32 … 1024)");
}

void launch_map(std::uint32_t* d_flags, const std::uint32_t* d_a, std::size_t n, cudaStream_t stream) {
  map_kernel<<<detail::stream_grid(n), tuning::stream_block, 0, stream>>>(d_flags, d_a, n);
  check_launch("winnow::cuda::map_kernel", stream);
}

void launch_hillis_pass(std::uint32_t* d_out, const std::uint32_t* d_in, std::size_t n, std::size_t offset,
                        unsigned block, cudaStream_t stream) {
  hillis_kernel<<<detail::stream_grid(n, static_cast<int>(block)), block, 0, stream>>>(d_out, d_in, n, offset);
  check_launch("winnow::cuda::hillis_kernel", stream);
}

void launch_blelloch_blocks(std::uint32_t* d_out, const std::uint32_t* d_in, std::uint32_t* d_sums, std::size_t n,
                            unsigned block, cudaStream_t stream) {
  switch (block) {
  case 32: blelloch_as<32>(d_out, d_in, d_sums, n, stream); break;
  case 64: blelloch_as<64>(d_out, d_in, d_sums, n, stream); break;
  case 128: blelloch_as<128>(d_out, d_in, d_sums, n, stream); break;
  case 256: blelloch_as<256>(d_out, d_in, d_sums, n, stream); break;
  case 512: blelloch_as<512>(d_out, d_in, d_sums, n, stream); break;
  case 1024: blelloch_as<1024>(d_out, d_in, d_sums, n, stream); break;
  default:
    check_scan_block(block);
    throw error("winnow::cuda::scan: no Blelloch kernel for " + std::to_string(block) + " threads");
  }
}

void launch_add_block_sums(std::uint32_t* d_out, const std::uint32_t* d_sums, std::size_t n, unsigned block,
                           cudaStream_t stream) {
  add_sums_kernel<<<detail::stream_grid(n), tuning::stream_block, 0, stream>>>(
      d_out, d_sums, n, static_cast<unsigned>(blelloch_block_elements(block)));
  check_launch("winnow::cuda::add_sums_kernel", stream);
}

void launch_scatter(std::uint32_t* d_out, const std::uint32_t* d_a, const std::uint32_t* d_prefix, std::size_t n,
                    bool inclusive, unsigned long long* d_count, cudaStream_t stream) {
  scatter_kernel<<<detail::stream_grid(n), tuning::stream_block, 0, stream>>>(d_out, d_a, d_prefix, n, inclusive,
                                                                              d_count);
  check_launch("winnow::cuda::scatter_kernel", stream);
}

} // namespace winnow::cuda
