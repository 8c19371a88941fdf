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
#include <algorithm>
#include <cuda/atomic>
#include <type_traits>

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

constexpr unsigned long long aggregate_state = 1, prefix_state = 2;

template <class E> constexpr int VEC = 16 / sizeof(E);

/// How a look-back waits. `sleep`: a pause (lookback_state::pause_ns) between publishing the tile's
/// aggregate and the first read of its predecessors' states (they are then more often there) and of
/// POLL ns between reads of states not yet published (spinning warps otherwise crowd the L2 slices
/// that the publishers write to). `spin` re-reads at once. On the H200 at 2^28, sleeping 1000 ns
/// (close to CUB's tuning for sm_90: 1150 and 76 ns) made every shape 1.04-1.26× faster; with the L2
/// prefetch, 2000 ns is faster again on the H100 (2^28: 1.06× and 1.04× at 10 and 50 % valid; 3000 ns
/// wins at 50-90 % but loses at 10 % and at 2^20; docs/algorithms.md § Single pass, "Look back"), unless
/// the tile is 128x16m5. The pause is a property of the card, chosen on it (pause=auto).
template <bool PAUSE_, unsigned POLL_> struct wait_policy {
  static constexpr bool PAUSE = PAUSE_;
  static constexpr unsigned POLL = POLL_;
};
using spin = wait_policy<false, 0>;
using sleep = wait_policy<true, 100>;

/// A tile's shape: THREADS threads, each loading ROWS 16-byte vectors (row r is vector r·THREADS + t),
/// and MIN_BLOCKS resident blocks per SM asked of the compiler. A block holds its tile in registers
/// from the load through the look-back to the store, so the bytes in flight per SM are about the
/// resident tiles' bytes: at 2^28 elements the run is bound by them (Little's law), not by DRAM.
/// Many vectors per thread win: 128x16m4 (128 registers, 4 blocks of 32 KiB per SM), the default
/// since the keep-flags became one bit each (a bool per element took 168 registers and allowed 3
/// blocks). With the L2 prefetch, 128x16m5 measured 4 % faster at 10 % valid on the H200 and 1-1.5 %
/// above (docs/findings.md, "Tile, store and prefetch"), and on the H100 only with a longer pause: so
/// tile=auto and pause=auto (the defaults) time both shapes on the device (lookback_tuning.hpp).
/// ncu on the H200, before the prefetch: 34 % of DRAM throughput with 4 blocks of 256x4, 44 % with 8
/// of 128x8, 51 % with 3 of 128x16. Keeping the tiles in shared memory instead, filled by bulk copies
/// ahead of persistent blocks, was 2× slower, and one bulk-copied tile per block (3-12 blocks per SM)
/// 1.04-1.5× slower, the best shape 1.04-1.33× (docs/algorithms.md § Single pass, "Why the tile stays
/// in registers").
///
/// A persistent shape ("p" before its name) keeps its blocks resident for the whole run: each takes
/// its next tile and issues that tile's loads before it ranks, looks back for and stores the current
/// one, so a block's loads stay in flight while it waits (two tiles in registers per thread).
template <int THREADS_, int ROWS_, int MIN_BLOCKS_ = 0, bool PERSIST_ = false> struct shape {
  static constexpr int THREADS = THREADS_, ROWS = ROWS_, WARPS = THREADS / 32, MIN_BLOCKS = MIN_BLOCKS_;
  static constexpr bool PERSIST = PERSIST_;
  static_assert(ROWS % 2 == 0, "row counts are packed two per word");
  template <class E> static constexpr int tile() { return THREADS * ROWS * VEC<E>; }
};

using status_ref = ::cuda::atomic_ref<unsigned long long, ::cuda::thread_scope_device>;

__device__ __forceinline__ unsigned long long status_word(std::uint32_t epoch, unsigned long long state,
                                                          std::uint32_t value) {
  return (static_cast<unsigned long long>(epoch) << 34) | (state << 32) | value;
}

/// Warp 0 of tile `tile`: publishes its aggregate, sums the predecessors' published values back to
/// the nearest inclusive prefix (32 predecessors per step, one per lane), publishes its own inclusive
/// prefix, and returns its exclusive prefix. Relaxed atomics suffice: a published value is the only
/// thing its reader needs, and it is written after the tile's input was read. (Four predecessors per
/// lane, 128 per step, measured 1.1-1.3× slower on the H200: the extra reads cost more than the
/// steps they save.)
template <class W>
__device__ std::uint32_t look_back(const lookback_state& s, std::size_t tile, std::uint32_t aggregate) {
  const unsigned lane = lane_id();
  if (tile == 0) {
    if (lane == 0)
      status_ref(s.status[0]).store(status_word(s.epoch, prefix_state, aggregate), ::cuda::memory_order_relaxed);
    return 0;
  }
  if (lane == 0)
    status_ref(s.status[tile]).store(status_word(s.epoch, aggregate_state, aggregate), ::cuda::memory_order_relaxed);
  if constexpr (W::PAUSE) {
    if (s.pause_ns > 0) __nanosleep(s.pause_ns);
  }
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
      if constexpr (W::POLL > 0) __nanosleep(W::POLL);
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
    status_ref(s.status[tile])
        .store(status_word(s.epoch, prefix_state, exclusive + aggregate), ::cuda::memory_order_relaxed);
  return exclusive;
}

/// How one tile's elements rank: row r's count in the whole tile, and before this thread's part of it.
template <int ROWS> struct ranks {
  unsigned row_total[ROWS], row_before[ROWS];
  std::uint32_t aggregate;
};

/// Element (r, t, j) of a tile (vector r·THREADS + t, element j of it) goes to row r's start + the
/// count of row r before thread t + the count before j. The rows' counts are packed two per word (a
/// row keeps ≤ THREADS·V ≤ 2048 < 2^16). `sh` holds ROWS/2 words per warp. Ends with a barrier.
template <class S> __device__ ranks<S::ROWS> rank_rows(const unsigned (&ok)[S::ROWS], unsigned* sh) {
  constexpr int ROWS = S::ROWS, PAIRS = ROWS / 2;
  unsigned packed[PAIRS], incl[PAIRS];
#pragma unroll
  for (int q = 0; q < PAIRS; ++q) {
    packed[q] = __popc(ok[2 * q]) | __popc(ok[2 * q + 1]) << 16;
    incl[q] = detail::warp_inclusive_sum(packed[q]);
    if (lane_id() == 31) sh[q * S::WARPS + warp_id()] = incl[q];
  }
  __syncthreads();
  ranks<ROWS> out;
  out.aggregate = 0;
#pragma unroll
  for (int q = 0; q < PAIRS; ++q) {
    unsigned before = 0, total = 0;
#pragma unroll
    for (int w = 0; w < S::WARPS; ++w) {
      const unsigned a = sh[q * S::WARPS + w];
      if (static_cast<unsigned>(w) < warp_id()) before += a;
      total += a;
    }
    const unsigned ex = before + incl[q] - packed[q];
    out.row_total[2 * q] = total & 0xFFFF;
    out.row_total[2 * q + 1] = total >> 16;
    out.row_before[2 * q] = ex & 0xFFFF;
    out.row_before[2 * q + 1] = ex >> 16;
    out.aggregate += out.row_total[2 * q] + out.row_total[2 * q + 1];
  }
  return out;
}

/// The tile's exclusive prefix, by warp 0's look-back, for every thread. Two barriers.
template <class W>
__device__ std::size_t prefix_of(const lookback_state& s, std::size_t tile, std::uint32_t aggregate,
                                 std::uint32_t* sh_prefix) {
  if (warp_id() == 0) {
    const std::uint32_t exclusive = look_back<W>(s, tile, aggregate);
    if (lane_id() == 0) *sh_prefix = exclusive;
  }
  __syncthreads();
  return *sh_prefix;
}

/// Stages the survivors in order in `stage`, shifted by first mod V so that output vector q sits at
/// stage vector q − first / V, and stores them: whole aligned vectors, then the elements before the
/// first and after the last. `stage` holds T + V elements. One barrier; the caller syncs before
/// `stage` is written again.
template <class S, class E, int V>
__device__ void stage_and_store(const E (&v)[S::ROWS][V], const unsigned (&ok)[S::ROWS], const ranks<S::ROWS>& k,
                                std::size_t first, uint4* stage_vectors, E* out) {
  constexpr int ROWS = S::ROWS, THREADS = S::THREADS;
  E* stage = reinterpret_cast<E*>(stage_vectors);
  const unsigned shift = static_cast<unsigned>(first % V);
  unsigned row_start = 0;
#pragma unroll
  for (int r = 0; r < ROWS; ++r) {
    unsigned rank = shift + row_start + k.row_before[r];
#pragma unroll
    for (int j = 0; j < V; ++j)
      if (ok[r] >> j & 1) stage[rank++] = v[r][j];
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

/// Stores this thread's survivors at their places, one store each (4, 8 or 16 bytes, aligned): a
/// warp's row lands in one contiguous range, so its stores combine in L2. No shared memory. On the
/// H200 (docs/algorithms.md § Single pass, "Store") it beats staging at 50 % valid (555 against 572 µs at
/// 2^28 / 50 %) and loses at 90 % (813 against 701 µs: four times the store instructions of whole
/// vectors); in Vulkan, where the staging area costs resident workgroups, direct wins everywhere.
template <class S, class E, int V>
__device__ __forceinline__ void store_direct(const E (&v)[S::ROWS][V], const unsigned (&ok)[S::ROWS],
                                             const ranks<S::ROWS>& k, std::size_t first, E* out) {
  std::size_t row_start = first;
#pragma unroll
  for (int r = 0; r < S::ROWS; ++r) {
    std::size_t rank = row_start + k.row_before[r];
#pragma unroll
    for (int j = 0; j < V; ++j)
      if (ok[r] >> j & 1) out[rank++] = v[r][j];
    row_start += k.row_total[r];
  }
}

/// This thread's rows of a full tile (row r is vector r·THREADS + t): every load is issued before any
/// is used, so a thread has all ROWS of them in flight at once.
template <class S, class E, int V> __device__ __forceinline__ void load_full(const uint4* tile, E (&v)[S::ROWS][V]) {
#pragma unroll
  for (int r = 0; r < S::ROWS; ++r) unpack(__ldcs(tile + r * S::THREADS + threadIdx.x), v[r]);
}

/// The same rows of the run's last, partial tile, element by element; elements past n read as zero
/// (invalid).
template <class S, class E, int V>
__device__ __forceinline__ void load_partial(const E* in, std::size_t begin, std::size_t n, E (&v)[S::ROWS][V]) {
#pragma unroll
  for (int r = 0; r < S::ROWS; ++r) {
    const std::size_t e0 = begin + (static_cast<std::size_t>(r) * S::THREADS + threadIdx.x) * V;
#pragma unroll
    for (int j = 0; j < V; ++j) v[r][j] = e0 + j < n ? in[e0 + j] : E{};
  }
}

/// Tile `tile`'s rows of this thread. One test for the whole tile, outside the row loop: tested per
/// row, it kept the compiler from issuing the rows' loads together (64x16 tiles ran 1.28× slower on
/// the H200 that way).
template <class S, class E, int V>
__device__ __forceinline__ void load_tile(const lookback_state& s, std::size_t tile, E (&v)[S::ROWS][V]) {
  constexpr std::size_t T = S::template tile<E>();
  const auto* in = static_cast<const E*>(s.in);
  const std::size_t begin = tile * T;
  if (begin + T <= s.n) load_full<S, E, V>(reinterpret_cast<const uint4*>(in + begin), v);
  else load_partial<S, E, V>(in, begin, s.n, v);
}

/// Bit j of ok[r]: element j of row r is kept (a bit, not a bool each: registers). The first use of
/// the loaded rows, so the thread waits for its loads here.
template <class S, class E, int V>
__device__ __forceinline__ void keep_flags(const E (&v)[S::ROWS][V], unsigned (&ok)[S::ROWS]) {
#pragma unroll
  for (int r = 0; r < S::ROWS; ++r) {
    ok[r] = 0;
#pragma unroll
    for (int j = 0; j < V; ++j) ok[r] |= static_cast<unsigned>(payload(v[r][j]) != 0) << j;
  }
}

/// How survivors reach the output (lookback_stores()).
struct direct {};
struct staged {};
/// Per tile: staged where the tile keeps at least 5/8 of its elements, direct below. The choice is
/// the block's (its aggregate), so staging's barrier is reached by every thread or by none.
struct by_density {};

/// Shared memory of a block: the tile id it takes, the rows' warp counts, its exclusive prefix. A
/// staged kernel's staging area is dynamic shared memory (a tile's vectors + 1: up to 64 KiB).
template <class S> struct block_shared {
  std::size_t tile;
  unsigned counts[S::ROWS / 2 * S::WARPS];
  std::uint32_t prefix;
};

/// Takes the next tile for the block (an atomic counter, not blockIdx: a block then only waits on
/// tiles that running blocks took before, the forward-progress argument above; blockIdx.x measured 3 %
/// faster on the H200). Thread 0 only; the caller's barrier publishes it.
__device__ __forceinline__ std::size_t take_tile(const lookback_state& s) {
  return static_cast<std::size_t>(atomicAdd(s.counter, 1ull) - s.base);
}

/// Asks L2 for the input of tile `tile` + s.prefetch (when there is one), so that the block taking it
/// later finds it there: DRAM then streams ahead of the blocks, not only while a block's loads are in
/// flight (a block holds no loads during its look-back and stores, and registers cap the resident
/// blocks at 4 per SM). One bulk prefetch of the whole tile from thread 0 on sm_90 (no registers, no
/// shared memory, nothing to wait for); elsewhere one line prefetch per 128 bytes, spread over the block.
/// On the H100 at 2^28 / 50 % valid, 2 tiles per SM ahead: 602 µs against 699 without (ncu: 79 % of
/// DRAM throughput against 66 %); 8 per SM (33 MiB ahead in a 50 MiB L2) is slower than none.
template <class S, class E>
__device__ __forceinline__ void prefetch_ahead(const lookback_state& s, std::size_t tiles, std::size_t tile) {
  constexpr std::size_t T = S::template tile<E>();
  if (s.prefetch == 0 || tile + s.prefetch >= tiles) return;
  const std::size_t begin = (tile + s.prefetch) * T;
  const auto* p = static_cast<const char*>(s.in) + begin * sizeof(E);
  const std::size_t bytes = (std::min(s.n - begin, T) * sizeof(E)) & ~std::size_t{15};
#if __CUDA_ARCH__ >= 900
  if (threadIdx.x == 0 && bytes > 0)
    asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(p), "r"(static_cast<unsigned>(bytes)) : "memory");
#else
  for (std::size_t b = threadIdx.x * std::size_t{128}; b < bytes; b += S::THREADS * std::size_t{128})
    asm volatile("prefetch.global.L2 [%0];" ::"l"(p + b));
#endif
}

/// take_tile for the whole block: thread 0 takes, a barrier publishes the id, every thread returns it.
/// The caller must not write sh.tile again before every thread has read it (a barrier, or finish_tile's).
template <class S>
__device__ __forceinline__ std::size_t block_take_tile(const lookback_state& s, block_shared<S>& sh) {
  if (threadIdx.x == 0) sh.tile = take_tile(s);
  __syncthreads();
  return sh.tile;
}

/// The rest of a tile once its loads are issued: flags, ranks, look-back, store. Four barriers at
/// most; `sh` is free again once every thread has passed the next barrier after it returns.
template <class S, class W, class E, class P>
__device__ __forceinline__ void finish_tile(const lookback_state& s, std::size_t tiles, std::size_t tile,
                                            const E (&v)[S::ROWS][VEC<E>], block_shared<S>& sh, uint4* stage) {
  constexpr int V = VEC<E>, ROWS = S::ROWS;
  constexpr int T = S::template tile<E>();
  unsigned ok[ROWS];
  keep_flags<S, E, V>(v, ok);
  const ranks<ROWS> k = rank_rows<S>(ok, sh.counts);
  const std::size_t first = prefix_of<W>(s, tile, k.aggregate, &sh.prefix);
  auto* out = static_cast<E*>(s.out);
  if constexpr (std::is_same_v<P, direct>) store_direct<S, E, V>(v, ok, k, first, out);
  else if constexpr (std::is_same_v<P, staged>) stage_and_store<S, E, V>(v, ok, k, first, stage, out);
  else if (8 * k.aggregate >= 5u * T) stage_and_store<S, E, V>(v, ok, k, first, stage, out);
  else store_direct<S, E, V>(v, ok, k, first, out);
  if (tile == tiles - 1 && threadIdx.x == 0) *s.count = first + k.aggregate;
}

/// A block per tile: the block takes the next tile, loads it into registers, ranks, looks back, stores.
template <class S, class W, class E, class P>
__device__ __forceinline__ void compact_tile(const lookback_state& s, std::size_t tiles) {
  __shared__ block_shared<S> sh;
  extern __shared__ uint4 sh_stage[];
  const std::size_t tile = block_take_tile(s, sh);
  E v[S::ROWS][VEC<E>];
  load_tile<S, E, VEC<E>>(s, tile, v);
  prefetch_ahead<S, E>(s, tiles, tile);
  finish_tile<S, W, E, P>(s, tiles, tile, v, sh, sh_stage);
}

/// One step of a persistent block: takes the tile after `tile`, issues its loads into `next`, then
/// finishes `tile` from `cur`. Returns the next tile's id (≥ tiles: none). The barrier after taking
/// also orders this step's shared writes after the previous step's reads; the id itself is written
/// again only in the next step, after finish_tile's barriers, which every thread reaches after its read.
template <class S, class W, class E, class P>
__device__ __forceinline__ std::size_t persistent_step(const lookback_state& s, std::size_t tiles, std::size_t tile,
                                                       const E (&cur)[S::ROWS][VEC<E>], E (&next)[S::ROWS][VEC<E>],
                                                       block_shared<S>& sh, uint4* stage) {
  const std::size_t after = block_take_tile(s, sh);
  if (after < tiles) load_tile<S, E, VEC<E>>(s, after, next);
  prefetch_ahead<S, E>(s, tiles, after);
  finish_tile<S, W, E, P>(s, tiles, tile, cur, sh, stage);
  return after;
}

/// Persistent blocks (as many as are resident): two tile buffers in registers that swap roles step by
/// step, so the next tile's loads are in flight during the current tile's look-back and store. The
/// forward-progress argument holds: the earliest tile without a published state belongs to a running
/// block, as its current tile (its predecessors all have states, so its look-back ends) or as its next
/// one (its current tile is earlier, has published, and its look-back ends likewise).
template <class S, class W, class E, class P>
__device__ __forceinline__ void compact_persistent(const lookback_state& s, std::size_t tiles) {
  __shared__ block_shared<S> sh;
  extern __shared__ uint4 sh_stage[];
  std::size_t tile = block_take_tile(s, sh);
  __syncthreads(); // every thread has read it before the first step's take writes it again
  E a[S::ROWS][VEC<E>], b[S::ROWS][VEC<E>];
  if (tile < tiles) load_tile<S, E, VEC<E>>(s, tile, a);
  while (tile < tiles) {
    tile = persistent_step<S, W, E, P>(s, tiles, tile, a, b, sh, sh_stage);
    if (tile >= tiles) break;
    tile = persistent_step<S, W, E, P>(s, tiles, tile, b, a, sh, sh_stage);
  }
}

/// A block's whole work: one tile, or a persistent block's tiles.
template <class S, class W, class E, class P>
__device__ __forceinline__ void compact(const lookback_state& s, std::size_t tiles) {
  if constexpr (S::PERSIST) compact_persistent<S, W, E, P>(s, tiles);
  else compact_tile<S, W, E, P>(s, tiles);
}

/// The kernel of a shape. Without MIN_BLOCKS the register count is the compiler's own choice: a
/// minimum of 1 block per SM lets it take far more (87 registers instead of 58 for 256x4).
template <class S, class W, class E, class P>
__global__ void __launch_bounds__(S::THREADS) compact_kernel(lookback_state s, std::size_t tiles) {
  compact<S, W, E, P>(s, tiles);
}
template <class S, class W, class E, class P>
__global__ void __launch_bounds__(S::THREADS, S::MIN_BLOCKS)
    compact_kernel_bounded(lookback_state s, std::size_t tiles) {
  compact<S, W, E, P>(s, tiles);
}

template <class F> void by_words(unsigned words, F&& f) {
  switch (words) {
  case 1: f(std::uint32_t{}); break;
  case 2: f(uint2{}); break;
  case 4: f(uint4{}); break;
  default: throw error("winnow::cuda::lookback: element of " + std::to_string(words) + " words (1, 2 or 4)");
  }
}

/// The tile shapes a run may choose (lookback_shapes() lists the same names, the default first), by
/// name: "THREADSxROWS", and "mK" where __launch_bounds__ asks for K resident blocks per SM (the
/// compiler then caps the registers).
template <class F> void by_shape(const std::string& name, F&& f) {
  if (name == "128x16m4") f(shape<128, 16, 4>{});
  else if (name == "128x16m3") f(shape<128, 16, 3>{});
  else if (name == "128x16m5") f(shape<128, 16, 5>{});
  else if (name == "128x24m3") f(shape<128, 24, 3>{});
  else if (name == "128x24") f(shape<128, 24>{});
  else if (name == "64x16") f(shape<64, 16>{});
  else if (name == "256x8m3") f(shape<256, 8, 3>{});
  else if (name == "256x8") f(shape<256, 8>{});
  else if (name == "128x8m8") f(shape<128, 8, 8>{});
  else if (name == "256x4") f(shape<256, 4>{});
  else if (name == "p128x8m4") f(shape<128, 8, 4, true>{});
  else if (name == "p128x8m5") f(shape<128, 8, 5, true>{});
  else if (name == "p128x16m2") f(shape<128, 16, 2, true>{});
  else if (name == "p128x16m3") f(shape<128, 16, 3, true>{});
  else if (name == "p256x4m2") f(shape<256, 4, 2, true>{});
  else throw error("winnow::cuda::lookback: unknown tile shape '" + name + "'");
}

} // namespace

std::vector<std::string> lookback_shapes() {
  return {"128x16m4", "128x16m3", "128x16m5", "128x24",   "128x24m3",  "64x16",     "256x8m3", "256x8",
          "128x8m8",  "256x4",    "p128x8m4", "p128x8m5", "p128x16m2", "p128x16m3", "p256x4m2"};
}
std::vector<std::string> lookback_waits() { return {"sleep", "spin"}; }
std::vector<std::string> lookback_stores() { return {"staged", "direct", "auto"}; }

std::size_t lookback_tile(unsigned words, const std::string& shape_name) {
  std::size_t t = 0;
  by_shape(shape_name, [&](auto sh) {
    using S = decltype(sh);
    by_words(words, [&](auto e) { t = S::template tile<decltype(e)>(); });
  });
  return t;
}

namespace {

template <class F> void by_wait(const std::string& name, F&& f) {
  if (name == "sleep") f(sleep{});
  else if (name == "spin") f(spin{});
  else throw error("winnow::cuda::lookback: unknown look-back wait '" + name + "' (sleep or spin)");
}

template <class F> void by_store(const std::string& name, F&& f) {
  if (name == "direct") f(direct{});
  else if (name == "staged") f(staged{});
  else if (name == "auto") f(by_density{});
  else throw error("winnow::cuda::lookback: unknown store '" + name + "' (staged, direct or auto)");
}

/// Calls f(kernel, tile elements, staging bytes, threads, persistent) for the kernel's shape, wait,
/// store and element size.
template <class F> void with_kernel(const lookback_kernel& k, F&& f) {
  by_shape(k.shape, [&](auto sh) {
    using S = decltype(sh);
    by_wait(k.wait, [&](auto w) {
      using W = decltype(w);
      by_store(k.store, [&](auto st) {
        using P = decltype(st);
        by_words(k.words, [&](auto e) {
          using E = decltype(e);
          constexpr int T = S::template tile<E>();
          void (*kernel)(lookback_state, std::size_t) = nullptr;
          if constexpr (S::MIN_BLOCKS > 0) kernel = compact_kernel_bounded<S, W, E, P>;
          else kernel = compact_kernel<S, W, E, P>;
          f(kernel, std::size_t{T}, std::is_same_v<P, direct> ? 0 : (T / VEC<E> + 1) * sizeof(uint4), S::THREADS,
            S::PERSIST);
        });
      });
    });
  });
}

} // namespace

void lookback_prepare(lookback_kernel& k) {
  with_kernel(k, [&](auto kernel, std::size_t, std::size_t stage, int threads, bool persistent) {
    // Over 48 KiB of dynamic shared memory needs the kernel's consent, and a persistent kernel's grid
    // the occupancy: both asked here, outside the timed run, so that no host call sits between the
    // run's start event and its launch.
    WINNOW_CUDA_CHECK(
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(stage)));
    int per_sm = 0, device = 0, sms = 0;
    WINNOW_CUDA_CHECK(cudaGetDevice(&device));
    WINNOW_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    k.sms = static_cast<std::size_t>(sms);
    k.resident = 0;
    if (!persistent) return;
    WINNOW_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, stage));
    if (per_sm < 1) throw error("winnow::cuda::lookback: tile " + k.shape + " cannot be resident on this device");
    k.resident = static_cast<std::size_t>(per_sm) * static_cast<std::size_t>(sms);
  });
}

unsigned long long lookback_compact(const lookback_state& s, const lookback_kernel& k, cudaStream_t stream) {
  if (s.n == 0) return 0;
  unsigned long long taken = 0;
  with_kernel(k, [&](auto kernel, std::size_t tile, std::size_t stage, int threads, bool persistent) {
    const std::size_t tiles = (s.n + tile - 1) / tile;
    const std::size_t blocks = persistent ? std::min(tiles, k.resident) : tiles;
    if (blocks == 0) throw error("winnow::cuda::lookback: a persistent kernel run before lookback_prepare");
    kernel<<<static_cast<unsigned>(blocks), threads, stage, stream>>>(s, tiles);
    // A persistent block takes ids until it draws one past the last tile: one more per block.
    taken = tiles + (persistent ? blocks : 0);
  });
  check_launch("winnow::cuda::lookback", stream);
  return taken;
}

} // namespace winnow::cuda
