// Redzone with its holes filled in address order and no orphans (cuda/redzone2 order=bitmap).
//
// Redzone needs only a bijection between the holes (R's indices below z = n − k) and the red zone's
// kept items (Z's positions not in R); both sets have the same size. Alg. 2 pairs Z[i] with R[i],
// which costs nothing to compute but scatters the fill's writes over the whole stream (DRAM-latency
// bound once the stream outgrows L2) and leaves orphans for phase 3. Here R is sorted first and the
// j-th hole takes the j-th kept item, so the writes land in address order and nothing is orphaned:
//   order: count  — per block, a histogram of R by its index's high bits (buckets of 2^shift);
//          scan   — one exclusive sum over the bucket × block counts gives every block its slice
//                   of every bucket (cub::DeviceScan);
//          scatter— each block writes its entries into its slices (R read while in L2);
//          sort   — one block per bucket sets a bit per entry in a shared-memory bitmap of the
//                   bucket's 2^shift indices and writes the set bits out in order;
//   fill:  blocks walk the red zone's slots in tiles; the sorted zone entries in a tile flag its
//          deleted slots, a block scan ranks the kept ones, and kept slot i (rank j among all kept
//          slots) is copied to the j-th hole: A[sorted[j]] = A[z + i].
// O(k + n / 32): the bitmaps are n bits in all, kept in shared memory and never in DRAM. No mark
// phase (deleted zone items are never read) and no orphans.
#include <cub/device/device_scan.cuh>

#include <algorithm>

#include "../check.hpp"
#include "../context.hpp"
#include "../dispatch/redzone.hpp"
#include "block.cuh"

namespace winnow::cuda {
namespace {

using detail::lane_id;
using detail::warp_id;

constexpr int order_block = 1024;
constexpr int scatter_tile = 8 * order_block;
constexpr int sort_block = 1024;
constexpr int fill_block = 256;
constexpr int fill_items = 8;
constexpr int fill_tile = fill_block * fill_items;
constexpr int fill_warps = fill_block / 32;
constexpr int fill_rows_per_lane = fill_items * fill_warps / 32;
static_assert(fill_rows_per_lane * 32 == fill_items * fill_warps, "the fill's row counts are scanned by one warp");

// ---- order -----------------------------------------------------------------------------------

/// f(v) for every entry of r[begin, end), read in 16-byte loads (two in flight per thread) between
/// a scalar head and tail.
template <int BLOCK, class F>
__device__ __forceinline__ void for_each_entry(const std::uint32_t* r, std::size_t begin, std::size_t end, F f) {
  if (begin >= end) return; // the slices are rounded up to 4 entries: the last ones may be empty
  const std::size_t a = std::min(end, (begin + 3) / 4 * 4), b = std::max(a, end / 4 * 4);
  for (std::size_t i = begin + threadIdx.x; i < a; i += BLOCK) f(r[i]);
  const auto* r4 = reinterpret_cast<const uint4*>(r);
  std::size_t q = a / 4 + threadIdx.x;
  for (; q + BLOCK < b / 4; q += 2 * BLOCK) {
    const uint4 x = r4[q], y = r4[q + BLOCK];
    f(x.x), f(x.y), f(x.z), f(x.w), f(y.x), f(y.y), f(y.z), f(y.w);
  }
  if (q < b / 4) {
    const uint4 x = r4[q];
    f(x.x), f(x.y), f(x.z), f(x.w);
  }
  for (std::size_t i = b + threadIdx.x; i < end; i += BLOCK) f(r[i]);
}

/// counts[b · parts + block] = entries of this block's slice of R in bucket b.
__global__ void __launch_bounds__(order_block)
    count_kernel(const std::uint32_t* r, std::size_t k, unsigned shift, unsigned buckets, std::size_t chunk,
                 std::uint32_t* counts) {
  extern __shared__ unsigned hist[];
  for (unsigned b = threadIdx.x; b < buckets; b += order_block) hist[b] = 0;
  __syncthreads();
  const std::size_t begin = blockIdx.x * chunk;
  for_each_entry<order_block>(r, begin, std::min(k, begin + chunk),
                              [&](std::uint32_t v) { atomicAdd(&hist[v >> shift], 1u); });
  __syncthreads();
  for (unsigned b = threadIdx.x; b < buckets; b += order_block)
    counts[static_cast<std::size_t>(b) * gridDim.x + blockIdx.x] = hist[b];
}

/// Each block moves its slice of R into its slices of the buckets, a tile at a time: the tile is
/// first grouped by bucket in shared memory, so that consecutive threads store consecutive places
/// of one bucket (a warp's stores cover a line or two, not 32). Inside a bucket the entries stay in
/// no particular order: the sort kernel orders them.
__global__ void __launch_bounds__(order_block)
    scatter_kernel(const std::uint32_t* r, std::size_t k, unsigned shift, unsigned buckets, std::size_t chunk,
                   const std::uint32_t* offsets, std::uint32_t* out) {
  extern __shared__ unsigned smem[];
  unsigned* cursor = smem;               // where this block's next entry of each bucket goes
  unsigned* tile_count = smem + buckets; // this tile's entries per bucket
  unsigned* tile_offset = smem + 2 * buckets;
  std::uint32_t* stage = smem + 3 * buckets; // the tile, grouped by bucket
  __shared__ unsigned warp_sums[order_block / 32 + 1];
  for (unsigned b = threadIdx.x; b < buckets; b += order_block)
    cursor[b] = offsets[static_cast<std::size_t>(b) * gridDim.x + blockIdx.x];
  const unsigned per_thread = (buckets + order_block - 1) / order_block;
  const std::size_t begin = blockIdx.x * chunk, end = std::min(k, begin + chunk);
  const auto* r4 = reinterpret_cast<const uint4*>(r);
  for (std::size_t base = begin; base < end; base += scatter_tile) {
    for (unsigned b = threadIdx.x; b < buckets; b += order_block) tile_count[b] = 0;
    __syncthreads();
    // Entries base + 4t … 4t + 3 and base + 4 (block + t) …: base is a multiple of 4.
    std::uint32_t v[8];
    unsigned rank[8];
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const std::size_t i = base + 4 * (static_cast<std::size_t>(h) * order_block + threadIdx.x);
      if (i + 3 < end) {
        const uint4 x = r4[i / 4];
        v[4 * h] = x.x, v[4 * h + 1] = x.y, v[4 * h + 2] = x.z, v[4 * h + 3] = x.w;
      } else {
#pragma unroll
        for (int e = 0; e < 4; ++e) v[4 * h + e] = i + e < end ? r[i + e] : 0xFFFFFFFFu;
      }
    }
#pragma unroll
    for (int e = 0; e < 8; ++e)
      if (v[e] != 0xFFFFFFFFu) rank[e] = atomicAdd(&tile_count[v[e] >> shift], 1u);
    __syncthreads();
    // Exclusive sum of the tile's counts; each thread owns a run of consecutive buckets.
    const unsigned b0 = threadIdx.x * per_thread, b1 = std::min(buckets, b0 + per_thread);
    unsigned mine = 0;
    for (unsigned b = b0; b < b1; ++b) mine += tile_count[b];
    unsigned total;
    unsigned at = detail::block_exclusive_sum<order_block>(mine, warp_sums, total);
    for (unsigned b = b0; b < b1; ++b) {
      tile_offset[b] = at;
      at += tile_count[b];
    }
    __syncthreads();
#pragma unroll
    for (int e = 0; e < 8; ++e)
      if (v[e] != 0xFFFFFFFFu) stage[tile_offset[v[e] >> shift] + rank[e]] = v[e];
    __syncthreads();
    for (unsigned t = threadIdx.x; t < total; t += order_block) {
      const std::uint32_t x = stage[t];
      const unsigned b = x >> shift;
      out[cursor[b] + (t - tile_offset[b])] = x;
    }
    __syncthreads();
    for (unsigned b = threadIdx.x; b < buckets; b += order_block) cursor[b] += tile_count[b];
  }
}

/// One block per bucket: a bitmap of the bucket's indices in shared memory, written out in order,
/// 32 words at a time per warp so that a warp's stores land next to each other. A duplicate
/// in R sets one bit for two entries; the count tells (status[1]).
__global__ void __launch_bounds__(sort_block)
    sort_kernel(const std::uint32_t* bucketed, const std::uint32_t* offsets, unsigned parts, unsigned shift,
                unsigned words, std::uint32_t* sorted, unsigned long long* status) {
  extern __shared__ std::uint32_t bits[];
  __shared__ unsigned warp_sums[sort_block / 32 + 1];
  const std::size_t b = blockIdx.x;
  const std::uint32_t begin = offsets[b * parts], end = offsets[(b + 1) * parts];
  for (unsigned w = threadIdx.x; w < words; w += sort_block) bits[w] = 0;
  __syncthreads();
  const std::uint32_t low = static_cast<std::uint32_t>(b << shift);
  for_each_entry<sort_block>(bucketed, begin, end, [&](std::uint32_t v) {
    v -= low;
    atomicOr(&bits[v >> 5], 1u << (v & 31));
  });
  __syncthreads();
  // Each warp owns a run of consecutive words: one block scan places the warps, then every warp
  // walks its run 32 words at a time with warp scans only.
  constexpr unsigned warps = sort_block / 32;
  const unsigned per_warp = (words + warps - 1) / warps;
  const unsigned w0 = warp_id() * per_warp, w1 = std::min(words, w0 + per_warp);
  unsigned mine = 0;
  for (unsigned w = w0 + lane_id(); w < w1; w += 32) mine += __popc(bits[w]);
  mine = detail::warp_sum(mine);
  unsigned total;
  const unsigned before = detail::block_exclusive_sum<sort_block>(lane_id() == 0 ? mine : 0u, warp_sums, total);
  std::uint32_t at = begin + __shfl_sync(detail::full_mask, before, 0);
  for (unsigned base = w0; base < w1; base += 32) {
    const unsigned w = base + lane_id();
    std::uint32_t word = w < w1 ? bits[w] : 0u;
    const unsigned count = __popc(word), inclusive = detail::warp_inclusive_sum(count);
    std::uint32_t out = at + inclusive - count;
    for (; word; word &= word - 1) sorted[out++] = low + 32 * w + (__ffs(word) - 1);
    at += __shfl_sync(detail::full_mask, inclusive, 31);
  }
  if (threadIdx.x == 0 && begin + total != end) status[1] = 1;
}

// ---- fill ------------------------------------------------------------------------------------

/// First position in v[lo, hi) whose value is ≥ x, found by the whole warp: 32 probes a step, so
/// five dependent loads cover 2^25 entries (a binary search would wait on 25).
__device__ std::size_t warp_lower_bound(const std::uint32_t* v, std::size_t lo, std::size_t hi, std::uint64_t x) {
  while (hi - lo > detail::warp_size) {
    const std::size_t step = (hi - lo + detail::warp_size - 1) / detail::warp_size;
    const std::size_t at = lo + lane_id() * step;
    const unsigned below = __popc(__ballot_sync(detail::full_mask, at < hi && v[at] < x));
    if (below == 0) return lo;
    const std::size_t next_lo = lo + (below - 1) * step + 1;
    hi = std::min(hi, lo + below * step);
    lo = next_lo;
  }
  const std::size_t at = lo + lane_id();
  return lo + __popc(__ballot_sync(detail::full_mask, at < hi && v[at] < x));
}

/// Persistent blocks, each over a contiguous run of the red zone's slots, tile by tile. Slots are
/// striped over the threads (row q holds slots i0 + q · block + thread), so a warp's loads and its
/// stores to the holes each cover consecutive addresses.
__global__ void __launch_bounds__(fill_block)
    fill_kernel(redzone_state s, const std::uint32_t* sorted, std::size_t slots_per_block) {
  __shared__ unsigned char deleted[fill_tile];
  __shared__ unsigned row_offsets[fill_items * fill_warps + 1];
  __shared__ unsigned warp_sums[fill_warps + 1];
  __shared__ std::size_t sh_h, sh_c;
  const std::size_t z = s.n - s.k;
  const std::size_t first = blockIdx.x * slots_per_block, last = std::min(s.k, first + slots_per_block);
  if (first >= last) return;
  if (warp_id() == 0) {
    // h holes come first in sorted R, the zone entries T = sorted[h, k) after them.
    const std::size_t h = warp_lower_bound(sorted, 0, s.k, z);
    const std::size_t c = warp_lower_bound(sorted, h, s.k, z + first);
    if (lane_id() == 0) {
      sh_h = h;
      sh_c = c;
      // Lemma 4.1's count, for the tests: the zone entries of R.
      if (blockIdx.x == 0) s.stats[0] = s.k - h;
    }
  }
  __syncthreads();
  const std::size_t h = sh_h;
  std::size_t c = sh_c; // position in sorted R of the first zone entry not yet flagged
  for (std::size_t i0 = first; i0 < last; i0 += fill_tile) {
    const std::size_t i1 = std::min(last, i0 + fill_tile);
    for (int t = threadIdx.x; t < fill_tile; t += fill_block) deleted[t] = 0;
    __syncthreads();
    // Flag this tile's zone entries, a block's width at a time, until one lies past the tile.
    for (;;) {
      const std::size_t at = c + threadIdx.x;
      const std::uint32_t v = at < s.k ? sorted[at] : 0u;
      // (v ≥ z + i0 holds for a set R; checked so that a duplicate cannot write outside deleted[].)
      const bool in = at < s.k && v >= z + i0 && v < z + i1;
      if (in) deleted[v - z - i0] = 1;
      const unsigned taken = detail::block_sum<fill_block>(in ? 1u : 0u, warp_sums);
      c += taken;
      if (taken < fill_block) break;
    }
    unsigned ballots[fill_items];
#pragma unroll
    for (int q = 0; q < fill_items; ++q) {
      const std::size_t slot = i0 + static_cast<std::size_t>(q) * fill_block + threadIdx.x;
      ballots[q] = __ballot_sync(detail::full_mask, slot < i1 && !deleted[slot - i0]);
      if (lane_id() == 0) row_offsets[q * fill_warps + warp_id()] = __popc(ballots[q]);
    }
    __syncthreads();
    if (warp_id() == 0) {
      // Exclusive sum over (row, warp) in slot order, fill_rows_per_lane counts a lane.
      unsigned mine[fill_rows_per_lane], sum = 0;
#pragma unroll
      for (int e = 0; e < fill_rows_per_lane; ++e) sum += mine[e] = row_offsets[fill_rows_per_lane * lane_id() + e];
      unsigned at = detail::warp_inclusive_sum(sum) - sum;
#pragma unroll
      for (int e = 0; e < fill_rows_per_lane; ++e) {
        row_offsets[fill_rows_per_lane * lane_id() + e] = at;
        at += mine[e];
      }
      if (lane_id() == 31) row_offsets[fill_items * fill_warps] = at;
    }
    __syncthreads();
    // Kept slots before the tile: i0 − (zone entries below z + i0), and c has just moved past
    // this tile's deleted ones.
    const std::size_t tile_deleted = (i1 - i0) - row_offsets[fill_items * fill_warps];
    const std::size_t j0 = i0 - (c - tile_deleted - h);
#pragma unroll
    for (int q = 0; q < fill_items; ++q) {
      if ((ballots[q] >> lane_id()) & 1u) {
        const std::size_t j = j0 + row_offsets[q * fill_warps + warp_id()] + __popc(ballots[q] & detail::lanemask_lt());
        const std::uint32_t hole = j < h ? sorted[j] : 0xFFFFFFFFu;
        const std::size_t slot = i0 + static_cast<std::size_t>(q) * fill_block + threadIdx.x;
        if (hole < z) s.a[hole] = s.a[z + slot]; // a hole ≥ z only when R was not a set (status says)
      }
    }
    __syncthreads(); // deleted[] and row_offsets[] are rewritten by the next tile
  }
}

std::size_t count_bytes(const redzone_bitmap_plan& p) { return 4 * static_cast<std::size_t>(p.buckets); }
std::size_t scatter_bytes(const redzone_bitmap_plan& p) {
  return 4 * (3 * static_cast<std::size_t>(p.buckets) + scatter_tile);
}

} // namespace

redzone_bitmap_plan redzone_bitmap_plan_for(std::size_t n, std::size_t k) {
  redzone_bitmap_plan p;
  int bits = 0;
  while (bits < 32 && (std::uint64_t{1} << bits) < n) ++bits;
  // About 256 buckets (the scatter's write fronts then fit in L2), each no wider than 2^20 indices
  // (a 128 KiB bitmap: one sort block per SM); past 2^28 elements the buckets multiply instead.
  const auto& props = context::get().props();
  int widest = 5; // the widest bucket whose bitmap this device's shared memory holds
  while (widest < 20 && (std::size_t{1} << (widest + 1)) / 8 <= props.shared_per_block_optin) ++widest;
  p.shift = static_cast<unsigned>(std::clamp(bits - 8, 5, widest));
  p.buckets = static_cast<unsigned>((n + (std::size_t{1} << p.shift) - 1) >> p.shift);
  const std::size_t tiles = (k + 8 * order_block - 1) / (8 * order_block);
  p.parts = static_cast<unsigned>(std::clamp<std::size_t>(tiles, 1, 2 * static_cast<std::size_t>(props.sms)));
  p.chunk = ((k + p.parts - 1) / p.parts + 3) / 4 * 4; // slices start on 16 bytes
  int fill_per_sm = 0;
  WINNOW_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &fill_per_sm, reinterpret_cast<const void*>(fill_kernel), fill_block, 0));
  const std::size_t resident = static_cast<std::size_t>(props.sms) * static_cast<std::size_t>(std::max(fill_per_sm, 1));
  const std::size_t fill_tiles = (k + fill_tile - 1) / fill_tile;
  p.fill_blocks = static_cast<unsigned>(std::clamp<std::size_t>(fill_tiles, 1, resident));
  p.slots_per_block = (fill_tiles + p.fill_blocks - 1) / p.fill_blocks * fill_tile;
  // The histograms take 4 bytes a bucket; past the default 48 KiB they need the opt-in limit.
  WINNOW_CUDA_CHECK(cudaFuncSetAttribute(reinterpret_cast<const void*>(count_kernel),
                                         cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         std::max(static_cast<int>(count_bytes(p)), 48 * 1024)));
  WINNOW_CUDA_CHECK(cudaFuncSetAttribute(reinterpret_cast<const void*>(scatter_kernel),
                                         cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         std::max(static_cast<int>(scatter_bytes(p)), 48 * 1024)));
  const int bitmap_bytes = static_cast<int>(4 * std::max(1u, (1u << p.shift) / 32));
  WINNOW_CUDA_CHECK(cudaFuncSetAttribute(reinterpret_cast<const void*>(sort_kernel),
                                         cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         std::max(bitmap_bytes, 48 * 1024)));
  std::size_t scan_bytes = 0;
  const std::size_t cells = static_cast<std::size_t>(p.buckets) * p.parts + 1;
  WINNOW_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, static_cast<std::uint32_t*>(nullptr), cells));
  p.scan_bytes = (scan_bytes + 255) / 256 * 256;
  p.counts_bytes = (4 * cells + 255) / 256 * 256; // bucketed R starts on 16 bytes, for the sort's vector loads
  p.temp_bytes = p.scan_bytes + p.counts_bytes + 4 * k;
  return p;
}

void redzone_bitmap_order(const redzone_bitmap_plan& p, void* d_temp, const std::uint32_t* d_r, std::size_t k,
                          std::uint32_t* d_sorted, unsigned long long* d_status, cudaStream_t stream) {
  auto* base = static_cast<std::uint8_t*>(d_temp);
  void* scan_temp = base;
  auto* counts = reinterpret_cast<std::uint32_t*>(base + p.scan_bytes);
  const std::size_t cells = static_cast<std::size_t>(p.buckets) * p.parts + 1;
  auto* bucketed = reinterpret_cast<std::uint32_t*>(base + p.scan_bytes + p.counts_bytes);
  // The last cell stays 0, so that the scan's last value is the total (the end of the last bucket).
  WINNOW_CUDA_CHECK(cudaMemsetAsync(counts + cells - 1, 0, 4, stream));
  count_kernel<<<p.parts, order_block, count_bytes(p), stream>>>(d_r, k, p.shift, p.buckets, p.chunk, counts);
  check_launch("winnow::cuda::redzone2 order=bitmap count_kernel", stream);
  std::size_t scan_bytes = p.scan_bytes;
  WINNOW_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scan_temp, scan_bytes, counts, cells, stream));
  scatter_kernel<<<p.parts, order_block, scatter_bytes(p), stream>>>(d_r, k, p.shift, p.buckets, p.chunk, counts,
                                                                     bucketed);
  check_launch("winnow::cuda::redzone2 order=bitmap scatter_kernel", stream);
  const unsigned words = std::max(1u, (1u << p.shift) / 32);
  sort_kernel<<<p.buckets, sort_block, 4 * words, stream>>>(bucketed, counts, p.parts, p.shift, words, d_sorted,
                                                            d_status);
  check_launch("winnow::cuda::redzone2 order=bitmap sort_kernel", stream);
}

void redzone_bitmap_fill(const redzone_state& s, const redzone_bitmap_plan& p, const std::uint32_t* d_sorted,
                         cudaStream_t stream) {
  fill_kernel<<<p.fill_blocks, fill_block, 0, stream>>>(s, d_sorted, p.slots_per_block);
  check_launch("winnow::cuda::redzone2 order=bitmap fill_kernel", stream);
}

} // namespace winnow::cuda
