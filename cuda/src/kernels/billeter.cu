// Billeter, Olsson & Assarsson 2009: stream compaction with P virtual processors (warps), each
// owning a contiguous range of the stream:
//   count (phase 1)  each warp counts the valid elements of its range;
//   scan  (phase 2)  exclusive sum of the P counts: where each warp starts writing;
//   move  (phase 3)  each warp walks its range 32 lanes × 16 bytes at a time; compactSIMD packs the
//                    valid elements (by a shuffle prefix sum or by ballot + popc) and writes them
//                    staged (through shared memory), scattered (straight), buffered (only whole
//                    aligned 512-byte chunks) or selective (staged or scattered per warp by density).
// Chunked mode: the stream is cut into pieces that fit in L2; kernel c moves chunk c (whose data the
// previous kernel pulled into L2 while counting it) while the other half of its grid counts chunk
// c + 1. The last counting block scans the counts (last-block-done: no spin-wait anywhere).
// Elements are 32, 64 or 128 bits; word 0 is the payload (0 = invalid).
#include <algorithm>

#include "../check.hpp"
#include "../dispatch/billeter.hpp"
#include "block.cuh"
#include "vector.cuh"
#include "launch.cuh"

namespace winnow::cuda {
namespace {

using detail::full_mask;
using detail::lane_id;
using detail::lanemask_lt;
using detail::payload;
using detail::unpack;
using detail::warp_id;

constexpr int BLOCK = tuning::billeter_block;
constexpr int WARPS = BLOCK / 32;

/// Elements per lane per step: every lane moves 16 bytes, so a warp step is 512 bytes.
template <class E> constexpr int per_lane = 16 / sizeof(E);
template <class E> constexpr int step_elems = 32 * per_lane<E>;

struct range {
  std::size_t begin, end;
};

/// Warp p's range of chunk [c0, c1): equal shares rounded up to whole steps (c0 is a multiple of a
/// step, so every range starts 512-byte aligned).
template <class E>
__device__ __forceinline__ range warp_range(std::size_t c0, std::size_t c1, std::size_t warps, std::size_t p) {
  constexpr std::size_t S = step_elems<E>;
  const std::size_t len = c1 - c0;
  const std::size_t per = ((len + warps - 1) / warps + S - 1) / S * S;
  const std::size_t b = std::min(c1, c0 + p * per);
  return {b, std::min(c1, b + per)};
}

/// Which elements are valid: the compaction's (payload not 0), or §5.3's radix sort pass (bit `bit`
/// of the key, word 0, is 0: those go to the front).
struct payload_set {
  __device__ __forceinline__ bool operator()(std::uint32_t word0) const { return word0 != 0; }
};
struct key_bit_clear {
  unsigned bit;
  __device__ __forceinline__ bool operator()(std::uint32_t word0) const { return (word0 >> bit & 1u) == 0; }
};

/// One step of a lane: its per_lane<E> elements at pos + lane × per_lane, with a 16-byte load
/// when they all lie inside the range. STREAM: the last use of the data (evict first).
template <class E, bool STREAM, class K = payload_set>
__device__ __forceinline__ void load_step(const E* in, std::size_t pos, std::size_t end, E (&v)[per_lane<E>],
                                          bool (&ok)[per_lane<E>], K valid = {}) {
  constexpr int V = per_lane<E>;
  const std::size_t i0 = pos + static_cast<std::size_t>(lane_id()) * V;
  if (i0 + V <= end) {
    const uint4* p = reinterpret_cast<const uint4*>(in + i0);
    unpack(STREAM ? __ldcs(p) : *p, v);
#pragma unroll
    for (int q = 0; q < V; ++q) ok[q] = valid(payload(v[q]));
  } else {
#pragma unroll
    for (int q = 0; q < V; ++q) {
      ok[q] = false;
      if (i0 + q < end) {
        v[q] = in[i0 + q];
        ok[q] = valid(payload(v[q]));
      }
    }
  }
}

template <class E> __device__ __forceinline__ void store(E* p, const E& e) {
  __stcs(p, e); // streamed: the output must not push the next chunk out of L2
}

/// Phase 1 for one warp: the valid elements of its range.
template <class E, class K = payload_set> __device__ unsigned count_range(const E* in, range r, K valid = {}) {
  constexpr int V = per_lane<E>;
  unsigned c = 0;
  for (std::size_t pos = r.begin; pos < r.end; pos += step_elems<E>) {
    E v[V];
    bool ok[V];
    load_step<E, false>(in, pos, r.end, v, ok, valid);
#pragma unroll
    for (int q = 0; q < V; ++q) c += ok[q];
  }
  return detail::warp_sum(c);
}

/// compactSIMD: the rank of each of this lane's valid elements among the step's valid elements in
/// stream order (lane-major, then element), and the step's count.
template <int V>
__device__ __forceinline__ unsigned compact_simd(compact_kind kind, const bool (&ok)[V], unsigned (&rank)[V]) {
  unsigned before, count;
  if (kind == compact_kind::popc) {
    // §3.4: a ballot per element slot; popc of the lower lanes' bits.
    before = 0;
    count = 0;
#pragma unroll
    for (int q = 0; q < V; ++q) {
      const unsigned m = __ballot_sync(full_mask, ok[q]);
      before += __popc(m & lanemask_lt());
      count += __popc(m);
    }
  } else {
    // §3.3: a Hillis-Steele prefix sum over the lanes' counts (5 shuffle steps).
    unsigned mine = 0;
#pragma unroll
    for (int q = 0; q < V; ++q) mine += ok[q];
    const unsigned inclusive = detail::warp_inclusive_sum(mine);
    before = inclusive - mine;
    count = __shfl_sync(full_mask, inclusive, 31);
  }
#pragma unroll
  for (int q = 0; q < V; ++q) {
    rank[q] = before;
    before += ok[q];
  }
  return count;
}

/// Phase 3 for one warp: range r of `in` to out[j, …). `buf` is this warp's 2 × 512 bytes of
/// shared memory.
template <class E>
__device__ void move_range(const E* in, E* out, range r, std::size_t j, compact_kind compact, output_kind output,
                           E* buf, bool last_use) {
  constexpr int V = per_lane<E>;
  constexpr std::size_t S = step_elems<E>;
  const unsigned lane = lane_id();
  // Buffered: slot 0 of buf stands for the aligned output position `aligned`; the `head` slots
  // before j belong to the previous warp and are never written.
  std::size_t aligned = j / S * S;
  unsigned head = static_cast<unsigned>(j - aligned), fill = head;

  for (std::size_t pos = r.begin; pos < r.end; pos += S) {
    E v[V];
    bool ok[V];
    if (last_use) load_step<E, true>(in, pos, r.end, v, ok);
    else load_step<E, false>(in, pos, r.end, v, ok);
    unsigned rank[V];
    const unsigned count = compact_simd<V>(compact, ok, rank);
    if (output == output_kind::scattered) {
#pragma unroll
      for (int q = 0; q < V; ++q)
        if (ok[q]) store(out + j + rank[q], v[q]);
    } else if (output == output_kind::staged) {
#pragma unroll
      for (int q = 0; q < V; ++q)
        if (ok[q]) buf[rank[q]] = v[q];
      __syncwarp();
      for (unsigned t = lane; t < count; t += 32) store(out + j + t, buf[t]);
      __syncwarp(); // buf is rewritten by the next step
    } else {        // buffered (§3.5)
#pragma unroll
      for (int q = 0; q < V; ++q)
        if (ok[q]) buf[fill + rank[q]] = v[q];
      fill += count;
      __syncwarp();
      if (fill >= S) {
        // One whole aligned step: a 16-byte store per lane, unless the head is not ours.
        const unsigned s0 = lane * V;
        if (s0 >= head) {
          store(reinterpret_cast<uint4*>(out + aligned + s0), *reinterpret_cast<const uint4*>(buf + s0));
        } else {
#pragma unroll
          for (int q = 0; q < V; ++q)
            if (s0 + q >= head) store(out + aligned + s0 + q, buf[s0 + q]);
        }
        // The overflow moves to the front; each lane moves the slots it just flushed.
        *reinterpret_cast<uint4*>(buf + s0) = *reinterpret_cast<const uint4*>(buf + S + s0);
        head = 0;
        aligned += S;
        fill -= static_cast<unsigned>(S);
        __syncwarp();
      }
    }
    j += count;
  }
  if (output == output_kind::buffered) {
    for (unsigned t = head + lane; t < fill; t += 32) store(out + aligned + t, buf[t]);
  }
}

/// Exclusive sum of counts[0, warps) into offsets, by one block; returns the total (all threads).
__device__ unsigned long long scan_counts(const std::uint32_t* counts, std::uint32_t* offsets, std::size_t warps,
                                          unsigned* warp_sums) {
  unsigned long long carry = 0;
  for (std::size_t base = 0; base < warps; base += BLOCK) {
    const std::size_t p = base + threadIdx.x;
    const unsigned c = p < warps ? __ldcg(counts + p) : 0u;
    unsigned total;
    const unsigned e = detail::block_exclusive_sum<BLOCK>(c, warp_sums, total);
    if (p < warps) offsets[p] = static_cast<std::uint32_t>(carry + e);
    carry += total;
  }
  return carry;
}

struct geometry {
  std::size_t n, chunk, chunks, warps;
  unsigned blocks;
};

__device__ __forceinline__ std::size_t chunk_begin(const geometry& g, std::size_t c) {
  return std::min(g.n, c * g.chunk);
}
__device__ __forceinline__ std::size_t chunk_end(const geometry& g, std::size_t c) {
  return std::min(g.n, (c + 1) * g.chunk);
}

/// Counts chunk c with blocks [0, g.blocks) of the role (block index b); with `scan_last`, the last
/// block to finish scans the counts and records the chunk's base and total.
template <class E>
__device__ void count_role(const billeter_state& s, const geometry& g, std::size_t c, unsigned b, bool scan_last) {
  __shared__ unsigned warp_sums[WARPS + 1];
  __shared__ bool sh_last;
  const std::size_t parity = (c & 1) * g.warps;
  const std::size_t p = static_cast<std::size_t>(b) * WARPS + warp_id();
  const range r = warp_range<E>(chunk_begin(g, c), chunk_end(g, c), g.warps, p);
  const unsigned count = count_range(static_cast<const E*>(s.in), r);
  if (lane_id() == 0) {
    s.counts[parity + p] = count;
    if (scan_last) __threadfence(); // every warp's count is visible before the block takes its ticket
  }
  if (!scan_last) return;
  __syncthreads();
  if (threadIdx.x == 0) { sh_last = atomicAdd(s.done, 1u) == g.blocks - 1; }
  __syncthreads();
  if (!sh_last) return;
  __threadfence();
  const unsigned long long total = scan_counts(s.counts + parity, s.offsets + parity, g.warps, warp_sums);
  if (threadIdx.x == 0) {
    const unsigned long long base = c == 0 ? 0ull : __ldcg(s.chunk + 2 * (c - 1)) + __ldcg(s.chunk + 2 * (c - 1) + 1);
    s.chunk[2 * c] = base;
    s.chunk[2 * c + 1] = total;
    if (c + 1 == g.chunks) *s.count = base + total;
    *s.done = 0;
  }
}

template <class E>
__device__ void move_role(const billeter_state& s, const geometry& g, std::size_t c, unsigned b, compact_kind compact,
                          output_kind output, bool last_use) {
  __shared__ uint4 bufs[WARPS][2 * 32]; // 2 × 512 bytes per warp
  const std::size_t parity = (c & 1) * g.warps;
  const std::size_t p = static_cast<std::size_t>(b) * WARPS + warp_id();
  const range r = warp_range<E>(chunk_begin(g, c), chunk_end(g, c), g.warps, p);
  if (r.begin >= r.end) return;
  const std::size_t j = s.chunk[2 * c] + s.offsets[parity + p];
  if (output == output_kind::selective) {
    // Billeter §4.2: per warp, by the density phase 1 measured for this very range.
    const float density = static_cast<float>(s.counts[parity + p]) / static_cast<float>(r.end - r.begin);
    output = density >= tuning::billeter_selective_density ? output_kind::staged : output_kind::scattered;
  }
  move_range(static_cast<const E*>(s.in), static_cast<E*>(s.out), r, j, compact, output,
             reinterpret_cast<E*>(bufs[warp_id()]), last_use);
}

template <class E> __global__ void __launch_bounds__(BLOCK) count_kernel(billeter_state s, geometry g, bool scan_last) {
  count_role<E>(s, g, 0, blockIdx.x, scan_last);
}

__global__ void __launch_bounds__(BLOCK) scan_kernel(billeter_state s, geometry g) {
  __shared__ unsigned warp_sums[WARPS + 1];
  const unsigned long long total = scan_counts(s.counts, s.offsets, g.warps, warp_sums);
  if (threadIdx.x == 0) {
    s.chunk[0] = 0;
    s.chunk[1] = total;
    *s.count = total;
  }
}

template <class E>
__global__ void __launch_bounds__(BLOCK)
    move_kernel(billeter_state s, geometry g, compact_kind compact, output_kind output) {
  move_role<E>(s, g, 0, blockIdx.x, compact, output, false);
}

/// Chunked step c: blocks [0, g.blocks) move chunk c, blocks [g.blocks, 2 g.blocks) count c + 1.
template <class E>
__global__ void __launch_bounds__(BLOCK)
    step_kernel(billeter_state s, geometry g, std::size_t c, compact_kind compact, output_kind output) {
  if (blockIdx.x < g.blocks) move_role<E>(s, g, c, blockIdx.x, compact, output, true);
  else count_role<E>(s, g, c + 1, blockIdx.x - g.blocks, true);
}

// ---- §5.2 prefix sum and §5.3 stream split (32-bit elements) ------------------------------------

__global__ void __launch_bounds__(BLOCK) prefix_kernel(billeter_state s, geometry g, std::uint32_t* prefix) {
  using E = std::uint32_t;
  constexpr int V = per_lane<E>;
  const std::size_t p = static_cast<std::size_t>(blockIdx.x) * WARPS + warp_id();
  const range r = warp_range<E>(0, g.n, g.warps, p);
  std::uint32_t j = s.offsets[p];
  const auto* in = static_cast<const E*>(s.in);
  for (std::size_t pos = r.begin; pos < r.end; pos += step_elems<E>) {
    E v[V];
    bool ok[V];
    load_step<E, true>(in, pos, r.end, v, ok);
    unsigned rank[V];
    const unsigned count = compact_simd<V>(compact_kind::prefix, ok, rank);
    // Every element gets its exclusive sum: aligned, whole 16-byte stores (the paper's point).
    const std::size_t i0 = pos + static_cast<std::size_t>(lane_id()) * V;
    if (i0 + V <= r.end) {
      __stcs(reinterpret_cast<uint4*>(prefix + i0), make_uint4(j + rank[0], j + rank[1], j + rank[2], j + rank[3]));
    } else {
#pragma unroll
      for (int q = 0; q < V; ++q)
        if (i0 + q < r.end) prefix[i0 + q] = j + rank[q];
    }
    j += count;
  }
}

// §5.2 as the paper times it: the exclusive prefix sum of 32-bit element values (modulo 2^32).
// Phase 1 sums each warp's range instead of counting it, phase 3 scans each step's values over the
// lanes (compactSIMD's prefix-sum form, on values) and adds the warp's offset from phase 2. Each lane
// writes back exactly the 16 bytes it read, so the sum can run in place.

/// A lane's four values of a step at pos; zeros past the range's end.
template <bool STREAM>
__device__ __forceinline__ void load_values(const std::uint32_t* in, std::size_t pos, std::size_t end,
                                            std::uint32_t (&v)[4]) {
  const std::size_t i0 = pos + static_cast<std::size_t>(lane_id()) * 4;
  if (i0 + 4 <= end) {
    const uint4* q = reinterpret_cast<const uint4*>(in + i0);
    unpack(STREAM ? __ldcs(q) : *q, v);
  } else {
#pragma unroll
    for (int k = 0; k < 4; ++k) v[k] = i0 + k < end ? in[i0 + k] : 0u;
  }
}

__global__ void __launch_bounds__(BLOCK) value_sum_kernel(billeter_state s, geometry g) {
  const std::size_t p = static_cast<std::size_t>(blockIdx.x) * WARPS + warp_id();
  const range r = warp_range<std::uint32_t>(0, g.n, g.warps, p);
  const auto* in = static_cast<const std::uint32_t*>(s.in);
  unsigned sum = 0;
  for (std::size_t pos = r.begin; pos < r.end; pos += step_elems<std::uint32_t>) {
    std::uint32_t v[4];
    load_values<false>(in, pos, r.end, v);
    sum += v[0] + v[1] + v[2] + v[3];
  }
  sum = detail::warp_sum(sum);
  if (lane_id() == 0) s.counts[p] = sum;
}

__global__ void __launch_bounds__(BLOCK) value_prefix_kernel(billeter_state s, geometry g, std::uint32_t* out) {
  const std::size_t p = static_cast<std::size_t>(blockIdx.x) * WARPS + warp_id();
  const range r = warp_range<std::uint32_t>(0, g.n, g.warps, p);
  const auto* in = static_cast<const std::uint32_t*>(s.in);
  std::uint32_t j = s.offsets[p];
  for (std::size_t pos = r.begin; pos < r.end; pos += step_elems<std::uint32_t>) {
    std::uint32_t v[4];
    load_values<true>(in, pos, r.end, v);
    const unsigned lane_total = v[0] + v[1] + v[2] + v[3];
    const unsigned inclusive = detail::warp_inclusive_sum(lane_total);
    const std::uint32_t e0 = j + inclusive - lane_total, e1 = e0 + v[0], e2 = e1 + v[1], e3 = e2 + v[2];
    const std::size_t i0 = pos + static_cast<std::size_t>(lane_id()) * 4;
    if (i0 + 4 <= r.end) {
      __stcs(reinterpret_cast<uint4*>(out + i0), make_uint4(e0, e1, e2, e3));
    } else {
      const std::uint32_t e[4] = {e0, e1, e2, e3};
#pragma unroll
      for (int k = 0; k < 4; ++k)
        if (i0 + k < r.end) out[i0 + k] = e[k];
    }
    j += __shfl_sync(full_mask, inclusive, 31);
  }
}

/// §5.3's split: the valid elements to the front, the others behind them, both in order. K: which
/// are valid (the payload's, or a key bit's for a radix sort pass).
template <class E, class K>
__global__ void __launch_bounds__(BLOCK) split_kernel(billeter_state s, geometry g, K valid) {
  constexpr int V = per_lane<E>;
  const std::size_t p = static_cast<std::size_t>(blockIdx.x) * WARPS + warp_id();
  const range r = warp_range<E>(0, g.n, g.warps, p);
  const std::size_t valid_total = *s.count;
  std::size_t j = s.offsets[p];
  // Invalid elements before this range = its start − the valid ones before it.
  std::size_t jn = valid_total + (r.begin - j);
  const auto* in = static_cast<const E*>(s.in);
  auto* out = static_cast<E*>(s.out);
  for (std::size_t pos = r.begin; pos < r.end; pos += step_elems<E>) {
    E v[V];
    bool ok[V], bad[V];
    load_step<E, true>(in, pos, r.end, v, ok, valid);
    const std::size_t i0 = pos + static_cast<std::size_t>(lane_id()) * V;
#pragma unroll
    for (int q = 0; q < V; ++q) bad[q] = !ok[q] && i0 + q < r.end;
    unsigned rank[V], rank_bad[V];
    const unsigned count = compact_simd<V>(compact_kind::popc, ok, rank);
    const unsigned count_bad = compact_simd<V>(compact_kind::popc, bad, rank_bad);
#pragma unroll
    for (int q = 0; q < V; ++q) {
      if (ok[q]) store(out + j + rank[q], v[q]);
      if (bad[q]) store(out + jn + rank_bad[q], v[q]);
    }
    j += count;
    jn += count_bad;
  }
}

/// Phase 1 of a radix sort pass: each warp counts the elements of its range whose key bit is 0.
template <class E>
__global__ void __launch_bounds__(BLOCK) radix_count_kernel(billeter_state s, geometry g, unsigned bit) {
  const std::size_t p = static_cast<std::size_t>(blockIdx.x) * WARPS + warp_id();
  const range r = warp_range<E>(0, g.n, g.warps, p);
  const unsigned count = count_range(static_cast<const E*>(s.in), r, key_bit_clear{bit});
  if (lane_id() == 0) s.counts[p] = count;
}

/// §5.3's pre- and postprocessing for keys and values in separate arrays: pairs[i] = (keys[i], values[i]).
__global__ void interleave_kernel(const std::uint32_t* keys, const std::uint32_t* values, uint2* pairs, std::size_t n) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += gridDim.x * static_cast<std::size_t>(blockDim.x))
    pairs[i] = make_uint2(keys[i], values[i]);
}
__global__ void deinterleave_kernel(const uint2* pairs, std::uint32_t* keys, std::uint32_t* values, std::size_t n) {
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
       i += gridDim.x * static_cast<std::size_t>(blockDim.x)) {
    const uint2 p = pairs[i];
    keys[i] = p.x;
    values[i] = p.y;
  }
}

template <class F> void by_words(unsigned words, F&& f) {
  switch (words) {
  case 1: f(std::uint32_t{}); break;
  case 2: f(uint2{}); break;
  case 4: f(uint4{}); break;
  default: throw error("winnow::cuda::billeter: element of " + std::to_string(words) + " words (1, 2 or 4)");
  }
}

geometry geometry_of(const billeter_state& s, const billeter_config& c) {
  return {s.n, c.chunk, c.chunks, static_cast<std::size_t>(c.blocks) * WARPS, c.blocks};
}

} // namespace

int billeter_occupancy(const billeter_config& c) {
  int blocks = 0;
  by_words(c.words, [&](auto e) {
    using E = decltype(e);
    WINNOW_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &blocks, reinterpret_cast<const void*>(step_kernel<E>), BLOCK, 0));
  });
  return std::max(blocks, 1);
}

void billeter_count(const billeter_state& s, const billeter_config& c, cudaStream_t stream) {
  by_words(c.words,
           [&](auto e) { count_kernel<decltype(e)><<<c.blocks, BLOCK, 0, stream>>>(s, geometry_of(s, c), false); });
  check_launch("winnow::cuda::billeter count_kernel", stream);
}

void billeter_scan(const billeter_state& s, const billeter_config& c, cudaStream_t stream) {
  scan_kernel<<<1, BLOCK, 0, stream>>>(s, geometry_of(s, c));
  check_launch("winnow::cuda::billeter scan_kernel", stream);
}

void billeter_move(const billeter_state& s, const billeter_config& c, cudaStream_t stream) {
  by_words(c.words, [&](auto e) {
    move_kernel<decltype(e)><<<c.blocks, BLOCK, 0, stream>>>(s, geometry_of(s, c), c.compact, c.output);
  });
  check_launch("winnow::cuda::billeter move_kernel", stream);
}

void billeter_chunk_prologue(const billeter_state& s, const billeter_config& c, cudaStream_t stream) {
  by_words(c.words,
           [&](auto e) { count_kernel<decltype(e)><<<c.blocks, BLOCK, 0, stream>>>(s, geometry_of(s, c), true); });
  check_launch("winnow::cuda::billeter count_kernel(chunk 0)", stream);
}

void billeter_chunk_step(const billeter_state& s, const billeter_config& c, std::size_t chunk, cudaStream_t stream) {
  const unsigned grid = chunk + 1 < c.chunks ? 2 * c.blocks : c.blocks;
  by_words(c.words, [&](auto e) {
    step_kernel<decltype(e)><<<grid, BLOCK, 0, stream>>>(s, geometry_of(s, c), chunk, c.compact, c.output);
  });
  check_launch("winnow::cuda::billeter step_kernel", stream);
}

void billeter_prefix(const billeter_state& s, const billeter_config& c, std::uint32_t* d_prefix, cudaStream_t stream) {
  prefix_kernel<<<c.blocks, BLOCK, 0, stream>>>(s, geometry_of(s, c), d_prefix);
  check_launch("winnow::cuda::billeter prefix_kernel", stream);
}

void billeter_value_sum(const billeter_state& s, const billeter_config& c, cudaStream_t stream) {
  value_sum_kernel<<<c.blocks, BLOCK, 0, stream>>>(s, geometry_of(s, c));
  check_launch("winnow::cuda::billeter value_sum_kernel", stream);
}

void billeter_value_prefix(const billeter_state& s, const billeter_config& c, std::uint32_t* d_out,
                           cudaStream_t stream) {
  value_prefix_kernel<<<c.blocks, BLOCK, 0, stream>>>(s, geometry_of(s, c), d_out);
  check_launch("winnow::cuda::billeter value_prefix_kernel", stream);
}

void billeter_split_move(const billeter_state& s, const billeter_config& c, cudaStream_t stream) {
  split_kernel<std::uint32_t><<<c.blocks, BLOCK, 0, stream>>>(s, geometry_of(s, c), payload_set{});
  check_launch("winnow::cuda::billeter split_kernel", stream);
}

void billeter_interleave(const std::uint32_t* d_keys, const std::uint32_t* d_values, uint2* d_pairs, std::size_t n,
                         cudaStream_t stream) {
  if (n == 0) return;
  interleave_kernel<<<detail::stream_grid(n, BLOCK), BLOCK, 0, stream>>>(d_keys, d_values, d_pairs, n);
  check_launch("winnow::cuda::billeter interleave_kernel", stream);
}

void billeter_deinterleave(const uint2* d_pairs, std::uint32_t* d_keys, std::uint32_t* d_values, std::size_t n,
                           cudaStream_t stream) {
  if (n == 0) return;
  deinterleave_kernel<<<detail::stream_grid(n, BLOCK), BLOCK, 0, stream>>>(d_pairs, d_keys, d_values, n);
  check_launch("winnow::cuda::billeter deinterleave_kernel", stream);
}

void billeter_radix_count(const billeter_state& s, const billeter_config& c, unsigned bit, cudaStream_t stream) {
  by_words(c.words,
           [&](auto e) { radix_count_kernel<decltype(e)><<<c.blocks, BLOCK, 0, stream>>>(s, geometry_of(s, c), bit); });
  check_launch("winnow::cuda::billeter radix_count_kernel", stream);
}

void billeter_radix_split(const billeter_state& s, const billeter_config& c, unsigned bit, cudaStream_t stream) {
  by_words(c.words, [&](auto e) {
    split_kernel<decltype(e)><<<c.blocks, BLOCK, 0, stream>>>(s, geometry_of(s, c), key_bit_clear{bit});
  });
  check_launch("winnow::cuda::billeter split_kernel (radix pass)", stream);
}

} // namespace winnow::cuda
