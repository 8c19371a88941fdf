// winnow's single-pass stable compaction: the input is read once and the output written once.
// Each block takes the next tile (an atomic counter, so tiles start in order), loads it with coalesced
// 16-byte loads, ranks its valid elements by a block-wide scan, and learns where its survivors go by
// decoupled look-back (Merrill & Garland, "Single-pass Parallel Prefix Scan with Decoupled
// Look-back", 2016): it publishes its own count at once, then sums its predecessors' published
// counts back to the nearest tile that has published an inclusive prefix, and publishes its own. The
// survivors are staged in shared memory in order, shifted so that the output's 16-byte vectors are
// aligned there too, and stored as whole vectors (scalar stores only at the run's two ends).
// One launch per run: the tile states carry the run's epoch, so nothing is cleared between runs.
//
// Forward progress: a block waits only on tiles taken before its own, by blocks that are already
// running; CUDA lets every resident block run, so the wait ends. In place is safe: a tile publishes
// its count only after its whole input is in registers, and its output never reaches past its own
// input, so no output overwrites input that a tile still has to read.
#include <cuda/atomic>

#include "../check.hpp"
#include "../dispatch/lookback.hpp"
#include "block.cuh"
#include "vector.cuh"

namespace winnow::cuda {
namespace {

using detail::full_mask;
using detail::lane_id;
using detail::payload;
using detail::unpack;
using detail::warp_id;

constexpr int THREADS = 256;
constexpr int ROWS = 4; ///< 16-byte vectors per thread
constexpr int WARPS = THREADS / 32;
constexpr unsigned long long aggregate_state = 1, prefix_state = 2;

template <class E> constexpr int VEC = 16 / sizeof(E);
template <class E> constexpr int TILE = THREADS * ROWS * VEC<E>;



using status_ref = ::cuda::atomic_ref<unsigned long long, ::cuda::thread_scope_device>;

__device__ __forceinline__ unsigned long long status_word(std::uint32_t epoch, unsigned long long state, std::uint32_t value) {
  return (static_cast<unsigned long long>(epoch) << 34) | (state << 32) | value;
}

/// Warp 0 of tile `tile`: publishes its aggregate, sums the predecessors' published values back to
/// the nearest inclusive prefix (32 predecessors per step, one per lane), publishes its own inclusive
/// prefix, and returns its exclusive prefix. Relaxed atomics suffice: a published value is the only
/// thing its reader needs, and it is written after the tile's input was read.
__device__ std::uint32_t look_back(const lookback_state& s, std::size_t tile, std::uint32_t aggregate) {
  const unsigned lane = lane_id();
  if (tile == 0) {
    if (lane == 0) status_ref(s.status[0]).store(status_word(s.epoch, prefix_state, aggregate), ::cuda::memory_order_relaxed);
    return 0;
  }
  if (lane == 0) status_ref(s.status[tile]).store(status_word(s.epoch, aggregate_state, aggregate), ::cuda::memory_order_relaxed);
  std::uint32_t exclusive = 0;
  long long end = static_cast<long long>(tile); // this step looks at predecessors [end − 32, end)
  while (true) {
    const long long pred = end - 1 - static_cast<long long>(lane);
    unsigned long long w = 0;
    bool ready = pred < 0;
    while (true) {
      if (!ready) {
        w = status_ref(s.status[pred]).load(::cuda::memory_order_relaxed);
        ready = (w >> 34) == s.epoch && ((w >> 32) & 3) != 0;
      }
      if (__all_sync(full_mask, ready)) break;
    }
    const bool prefix = pred < 0 || ((w >> 32) & 3) == prefix_state;
    const std::uint32_t value = pred < 0 ? 0u : static_cast<std::uint32_t>(w);
    const unsigned prefixes = __ballot_sync(full_mask, prefix);
    if (prefixes) {
      const unsigned nearest = static_cast<unsigned>(__ffs(static_cast<int>(prefixes)) - 1);
      exclusive += detail::warp_sum(lane <= nearest ? value : 0u);
      break;
    }
    exclusive += detail::warp_sum(value);
    end -= 32;
  }
  if (lane == 0)
    status_ref(s.status[tile]).store(status_word(s.epoch, prefix_state, exclusive + aggregate), ::cuda::memory_order_relaxed);
  return exclusive;
}

/// How one tile's elements rank: row r's count in the whole tile, and before this thread's part of it.
struct ranks {
  unsigned row_total[ROWS], row_before[ROWS];
  std::uint32_t aggregate;
};

/// Element (r, t, j) of a tile (vector r·THREADS + t, element j of it) goes to row r's start + the
/// count of row r before thread t + the count before j. The rows' counts are packed two per word (a
/// row keeps ≤ THREADS·V = 1024 < 2^16). Ends with a barrier.
template <int V>
__device__ ranks rank_rows(const bool (&ok)[ROWS][V], unsigned* sh_lo, unsigned* sh_hi) {
  unsigned c[ROWS];
#pragma unroll
  for (int r = 0; r < ROWS; ++r) {
    c[r] = 0;
#pragma unroll
    for (int j = 0; j < V; ++j) c[r] += ok[r][j];
  }
  const unsigned lo = c[0] | c[1] << 16, hi = c[2] | c[3] << 16;
  const unsigned lo_incl = detail::warp_inclusive_sum(lo), hi_incl = detail::warp_inclusive_sum(hi);
  if (lane_id() == 31) {
    sh_lo[warp_id()] = lo_incl;
    sh_hi[warp_id()] = hi_incl;
  }
  __syncthreads();
  unsigned before_lo = 0, before_hi = 0, total_lo = 0, total_hi = 0;
#pragma unroll
  for (int w = 0; w < WARPS; ++w) {
    const unsigned a = sh_lo[w], b = sh_hi[w];
    if (static_cast<unsigned>(w) < warp_id()) {
      before_lo += a;
      before_hi += b;
    }
    total_lo += a;
    total_hi += b;
  }
  const unsigned ex_lo = before_lo + lo_incl - lo, ex_hi = before_hi + hi_incl - hi;
  ranks out{{total_lo & 0xFFFF, total_lo >> 16, total_hi & 0xFFFF, total_hi >> 16},
            {ex_lo & 0xFFFF, ex_lo >> 16, ex_hi & 0xFFFF, ex_hi >> 16},
            0};
  out.aggregate = out.row_total[0] + out.row_total[1] + out.row_total[2] + out.row_total[3];
  return out;
}

/// The tile's exclusive prefix, by warp 0's look-back, for every thread. Two barriers.
__device__ std::size_t prefix_of(const lookback_state& s, std::size_t tile, std::uint32_t aggregate, std::uint32_t* sh_prefix) {
  if (warp_id() == 0) {
    const std::uint32_t exclusive = look_back(s, tile, aggregate);
    if (lane_id() == 0) *sh_prefix = exclusive;
  }
  __syncthreads();
  return *sh_prefix;
}

/// Stages the survivors in order in `stage`, shifted by first mod V so that output vector q sits at
/// stage vector q − first / V, and stores them: whole aligned vectors, then the elements before the
/// first and after the last. `stage` holds T + V elements. One barrier; the caller syncs before
/// `stage` is written again.
template <class E, int V>
__device__ void stage_and_store(const E (&v)[ROWS][V], const bool (&ok)[ROWS][V], const ranks& k, std::size_t first,
                                uint4* stage_vectors, E* out) {
  E* stage = reinterpret_cast<E*>(stage_vectors);
  const unsigned shift = static_cast<unsigned>(first % V);
  unsigned row_start = 0;
#pragma unroll
  for (int r = 0; r < ROWS; ++r) {
    unsigned rank = shift + row_start + k.row_before[r];
#pragma unroll
    for (int j = 0; j < V; ++j)
      if (ok[r][j]) stage[rank++] = v[r][j];
    row_start += k.row_total[r];
  }
  __syncthreads();
  const std::size_t last = first + k.aggregate;
  const std::size_t q_first = (first + V - 1) / V, q_last = last / V, origin = first - shift;
  if (q_first < q_last) {
    for (std::size_t q = q_first + threadIdx.x; q < q_last; q += THREADS)
      __stcs(reinterpret_cast<uint4*>(out + q * V), stage_vectors[q - origin / V]);
    for (std::size_t g = first + threadIdx.x; g < q_first * V; g += THREADS) out[g] = stage[g - origin];
    for (std::size_t g = q_last * V + threadIdx.x; g < last; g += THREADS) out[g] = stage[g - origin];
  } else {
    for (std::size_t g = first + threadIdx.x; g < last; g += THREADS) out[g] = stage[g - origin];
  }
}

/// A block per tile: the block takes the next tile, loads it into registers, ranks, looks back, stores.
template <class E>
__global__ void __launch_bounds__(THREADS) compact_kernel(lookback_state s, std::size_t tiles) {
  constexpr int V = VEC<E>;
  constexpr int T = TILE<E>;
  __shared__ std::size_t sh_tile;
  __shared__ unsigned sh_lo[WARPS], sh_hi[WARPS];
  __shared__ std::uint32_t sh_prefix;
  __shared__ uint4 sh_stage[T / V + 1];

  if (threadIdx.x == 0) sh_tile = static_cast<std::size_t>(atomicAdd(s.counter, 1ull) - s.base);
  __syncthreads();
  const std::size_t tile = sh_tile, begin = tile * T;
  const auto* in = static_cast<const E*>(s.in);
  E v[ROWS][V];
  bool ok[ROWS][V];
  const bool full = begin + T <= s.n;
#pragma unroll
  for (int r = 0; r < ROWS; ++r) {
    const std::size_t e0 = begin + (static_cast<std::size_t>(r) * THREADS + threadIdx.x) * V;
    if (full) {
      unpack(__ldcs(reinterpret_cast<const uint4*>(in + e0)), v[r]);
#pragma unroll
      for (int j = 0; j < V; ++j) ok[r][j] = payload(v[r][j]) != 0;
    } else {
#pragma unroll
      for (int j = 0; j < V; ++j) {
        ok[r][j] = false;
        if (e0 + j < s.n) {
          v[r][j] = in[e0 + j];
          ok[r][j] = payload(v[r][j]) != 0;
        }
      }
    }
  }
  const ranks k = rank_rows<V>(ok, sh_lo, sh_hi);
  const std::size_t first = prefix_of(s, tile, k.aggregate, &sh_prefix);
  stage_and_store<E, V>(v, ok, k, first, sh_stage, static_cast<E*>(s.out));
  if (tile == tiles - 1 && threadIdx.x == 0) *s.count = first + k.aggregate;
}

template <class F>
void by_words(unsigned words, F&& f) {
  switch (words) {
  case 1: f(std::uint32_t{}); break;
  case 2: f(uint2{}); break;
  case 4: f(uint4{}); break;
  default: throw error("winnow::cuda::lookback: element of " + std::to_string(words) + " words (1, 2 or 4)");
  }
}

} // namespace

std::size_t lookback_tile(unsigned words) {
  std::size_t t = 0;
  by_words(words, [&](auto e) { t = TILE<decltype(e)>; });
  return t;
}

void lookback_compact(const lookback_state& s, unsigned words, cudaStream_t stream) {
  if (s.n == 0) return;
  by_words(words, [&](auto e) {
    using E = decltype(e);
    const std::size_t tiles = (s.n + TILE<E> - 1) / TILE<E>;
    compact_kernel<E><<<static_cast<unsigned>(tiles), THREADS, 0, stream>>>(s, tiles);
  });
  check_launch("winnow::cuda::lookback", stream);
}

} // namespace winnow::cuda
