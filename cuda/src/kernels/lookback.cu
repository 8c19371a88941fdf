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
#include <cuda/ptx>

#include <algorithm>

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

/// A tile's shape: THREADS threads, each loading ROWS 16-byte vectors (row r is vector r·THREADS + t),
/// and MIN_BLOCKS resident blocks per SM asked of the compiler. A block holds its tile in registers
/// from the load through the look-back to the store, so the bytes in flight per SM are about the
/// resident tiles' bytes: at 2^28 elements the run is bound by them (Little's law), not by DRAM
/// (ncu on the H200: 34 % of DRAM throughput with 4 blocks of 256x4, 44 % with 8 of 128x8).
/// docs/results/h200-2026-11-24/README.md has each shape's times.
/// How a look-back waits (after Merrill & Garland, and CUB's tuning for sm_90): LOOK predecessors
/// per lane and step, a sleep of FIRST ns between publishing the aggregate and the first read of the
/// predecessors (their states are then more often there), and POLL ns between reads of states not
/// yet published (the spinning warps otherwise crowd the L2 slices the publishers write to).
template <int LOOK_ = 1, unsigned FIRST_ = 0, unsigned POLL_ = 0>
struct wait_policy {
  static constexpr int LOOK = LOOK_;
  static constexpr unsigned FIRST = FIRST_, POLL = POLL_;
};
using spin = wait_policy<>;
using sleep = wait_policy<1, 1000, 100>;
using sleep4 = wait_policy<4, 1000, 100>;

template <int THREADS_, int ROWS_, int MIN_BLOCKS_ = 0, class W = spin>
struct shape : W {
  static constexpr int THREADS = THREADS_, ROWS = ROWS_, WARPS = THREADS / 32, MIN_BLOCKS = MIN_BLOCKS_;
  static_assert(ROWS % 2 == 0, "row counts are packed two per word");
  template <class E> static constexpr int tile() { return THREADS * ROWS * VEC<E>; }
};

using status_ref = ::cuda::atomic_ref<unsigned long long, ::cuda::thread_scope_device>;

__device__ __forceinline__ unsigned long long status_word(std::uint32_t epoch, unsigned long long state, std::uint32_t value) {
  return (static_cast<unsigned long long>(epoch) << 34) | (state << 32) | value;
}

/// Predecessors a lane reads per look-back step: one step covers 32 · LOOK predecessors in one round
/// trip to L2. While tiles come faster than one step's round trip, the nearest inclusive prefix lies
/// about as many tiles back as are in flight, so a look-back walks that distance: the walk's width
/// caps the tiles per second at 32 · LOOK per round trip (with LOOK = 1: 85 tiles/µs on the H200,
/// 1.4 TB/s of 16 KiB tiles, whatever the tile's shape or pipeline).
/// Warp 0 of tile `tile`: publishes its aggregate, sums the predecessors' published values back to
/// the nearest inclusive prefix (32 · LOOK predecessors per step: lane l reads l · LOOK … l · LOOK +
/// LOOK − 1 back from the step's end), publishes its own inclusive prefix, and returns its exclusive
/// prefix. Relaxed atomics suffice: a published value is the only thing its reader needs, and it is
/// written after the tile's input was read.
template <class S>
__device__ std::uint32_t look_back(const lookback_state& s, std::size_t tile, std::uint32_t aggregate) {
  constexpr int LOOK = S::LOOK;
  const unsigned lane = lane_id();
  if (tile == 0) {
    if (lane == 0) status_ref(s.status[0]).store(status_word(s.epoch, prefix_state, aggregate), ::cuda::memory_order_relaxed);
    return 0;
  }
  if (lane == 0) status_ref(s.status[tile]).store(status_word(s.epoch, aggregate_state, aggregate), ::cuda::memory_order_relaxed);
  if constexpr (S::FIRST > 0) __nanosleep(S::FIRST);
  std::uint32_t exclusive = 0;
  long long end = static_cast<long long>(tile); // this step looks at predecessors [end − 32 · LOOK, end)
  while (true) {
    unsigned long long w[LOOK];
    bool ready[LOOK];
#pragma unroll
    for (int j = 0; j < LOOK; ++j) {
      w[j] = 0;
      ready[j] = end - 1 - static_cast<long long>(lane * LOOK + j) < 0;
    }
    while (true) {
      bool all = true;
#pragma unroll
      for (int j = 0; j < LOOK; ++j) {
        if (!ready[j]) {
          w[j] = status_ref(s.status[end - 1 - static_cast<long long>(lane * LOOK + j)]).load(::cuda::memory_order_relaxed);
          ready[j] = (w[j] >> 34) == s.epoch && ((w[j] >> 32) & 3) != 0;
        }
        all = all && ready[j];
      }
      if (__all_sync(full_mask, all)) break;
      if constexpr (S::POLL > 0) __nanosleep(S::POLL);
    }
    // This lane's nearest prefix (LOOK: none); predecessors before the start of the stream count 0
    // and end the walk like a prefix.
    int nearest = LOOK;
    std::uint32_t sum = 0, sum_to_nearest = 0;
#pragma unroll
    for (int j = LOOK - 1; j >= 0; --j) {
      const bool before_start = end - 1 - static_cast<long long>(lane * LOOK + j) < 0;
      if (before_start || ((w[j] >> 32) & 3) == prefix_state) nearest = j;
    }
#pragma unroll
    for (int j = 0; j < LOOK; ++j) {
      const bool before_start = end - 1 - static_cast<long long>(lane * LOOK + j) < 0;
      const std::uint32_t value = before_start ? 0u : static_cast<std::uint32_t>(w[j]);
      sum += value;
      if (j <= nearest) sum_to_nearest += value;
    }
    const unsigned prefixes = __ballot_sync(full_mask, nearest < LOOK);
    if (prefixes) {
      const unsigned first = static_cast<unsigned>(__ffs(static_cast<int>(prefixes)) - 1);
      exclusive += detail::warp_sum(lane < first ? sum : lane == first ? sum_to_nearest : 0u);
      break;
    }
    exclusive += detail::warp_sum(sum);
    end -= 32 * LOOK;
  }
  if (lane == 0)
    status_ref(s.status[tile]).store(status_word(s.epoch, prefix_state, exclusive + aggregate), ::cuda::memory_order_relaxed);
  return exclusive;
}

/// How one tile's elements rank: row r's count in the whole tile, and before this thread's part of it.
template <int ROWS>
struct ranks {
  unsigned row_total[ROWS], row_before[ROWS];
  std::uint32_t aggregate;
};

/// Element (r, t, j) of a tile (vector r·THREADS + t, element j of it) goes to row r's start + the
/// count of row r before thread t + the count before j. The rows' counts are packed two per word (a
/// row keeps ≤ THREADS·V ≤ 2048 < 2^16). `sh` holds ROWS/2 words per warp. Ends with a barrier.
template <class S, int V>
__device__ ranks<S::ROWS> rank_rows(const bool (&ok)[S::ROWS][V], unsigned* sh) {
  constexpr int ROWS = S::ROWS, PAIRS = ROWS / 2;
  unsigned packed[PAIRS], incl[PAIRS];
#pragma unroll
  for (int q = 0; q < PAIRS; ++q) {
    unsigned lo = 0, hi = 0;
#pragma unroll
    for (int j = 0; j < V; ++j) {
      lo += ok[2 * q][j];
      hi += ok[2 * q + 1][j];
    }
    packed[q] = lo | hi << 16;
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
template <class S>
__device__ std::size_t prefix_of(const lookback_state& s, std::size_t tile, std::uint32_t aggregate, std::uint32_t* sh_prefix) {
  if (warp_id() == 0) {
    const std::uint32_t exclusive = look_back<S>(s, tile, aggregate);
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
__device__ void stage_and_store(const E (&v)[S::ROWS][V], const bool (&ok)[S::ROWS][V], const ranks<S::ROWS>& k,
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

/// Loads the tile's row r for this thread from global memory where the tile is the run's last,
/// partial one (scalar loads, elements past n invalid).
template <class S, class E, int V>
__device__ __forceinline__ void load_partial(const E* in, std::size_t begin, std::size_t n, E (&v)[S::ROWS][V], bool (&ok)[S::ROWS][V]) {
#pragma unroll
  for (int r = 0; r < S::ROWS; ++r) {
    const std::size_t e0 = begin + (static_cast<std::size_t>(r) * S::THREADS + threadIdx.x) * V;
#pragma unroll
    for (int j = 0; j < V; ++j) {
      ok[r][j] = false;
      if (e0 + j < n) {
        v[r][j] = in[e0 + j];
        ok[r][j] = payload(v[r][j]) != 0;
      }
    }
  }
}

/// Splits 16-byte vectors (row r of thread t is vector r·THREADS + t of `vectors`) into elements and flags.
template <class S, class E, int V, class Load>
__device__ __forceinline__ void load_rows(Load&& vector, E (&v)[S::ROWS][V], bool (&ok)[S::ROWS][V]) {
#pragma unroll
  for (int r = 0; r < S::ROWS; ++r) {
    unpack(vector(r * S::THREADS + static_cast<int>(threadIdx.x)), v[r]);
#pragma unroll
    for (int j = 0; j < V; ++j) ok[r][j] = payload(v[r][j]) != 0;
  }
}

/// Ranks, looks back, stages and stores a tile whose elements are in registers.
template <class S, class E, int V>
__device__ __forceinline__ void finish_tile(const lookback_state& s, std::size_t tile, std::size_t tiles, const E (&v)[S::ROWS][V],
                                            const bool (&ok)[S::ROWS][V], unsigned* sh_counts, std::uint32_t* sh_prefix,
                                            uint4* stage) {
  const ranks<S::ROWS> k = rank_rows<S, V>(ok, sh_counts);
  const std::size_t first = prefix_of<S>(s, tile, k.aggregate, sh_prefix);
  stage_and_store<S, E, V>(v, ok, k, first, stage, static_cast<E*>(s.out));
  if (tile == tiles - 1 && threadIdx.x == 0) *s.count = first + k.aggregate;
}

/// A block per tile: the block takes the next tile, loads it into registers, ranks, looks back, stores.
/// The staging area is dynamic shared memory (a tile's vectors + 1: up to 64 KiB).
template <class S, class E>
__device__ __forceinline__ void compact_tile(const lookback_state& s, std::size_t tiles) {
  constexpr int V = VEC<E>, ROWS = S::ROWS;
  constexpr int T = S::template tile<E>();
  __shared__ std::size_t sh_tile;
  __shared__ unsigned sh_counts[ROWS / 2 * S::WARPS];
  __shared__ std::uint32_t sh_prefix;
  extern __shared__ uint4 sh_stage[];

  // Tiles by an atomic counter, not blockIdx: a block then only waits on tiles whose blocks already
  // run (the forward-progress argument above). blockIdx.x measured 3 % faster on the H200.
  if (threadIdx.x == 0) sh_tile = static_cast<std::size_t>(atomicAdd(s.counter, 1ull) - s.base);
  __syncthreads();
  const std::size_t tile = sh_tile, begin = tile * T;
  const auto* in = static_cast<const E*>(s.in);
  E v[ROWS][V];
  bool ok[ROWS][V];
  if (begin + T <= s.n) {
    const auto* vectors = reinterpret_cast<const uint4*>(in + begin);
    load_rows<S, E, V>([&](int i) { return __ldcs(vectors + i); }, v, ok);
  } else {
    load_partial<S, E, V>(in, begin, s.n, v, ok);
  }
  finish_tile<S, E, V>(s, tile, tiles, v, ok, sh_counts, &sh_prefix, sh_stage);
}

/// The kernel of a shape. Without MIN_BLOCKS the register count is the compiler's own choice: a
/// minimum of 1 block per SM lets it take far more (87 registers instead of 58 for 256x4).
template <class S, class E>
__global__ void __launch_bounds__(S::THREADS) compact_kernel(lookback_state s, std::size_t tiles) {
  compact_tile<S, E>(s, tiles);
}
template <class S, class E>
__global__ void __launch_bounds__(S::THREADS, S::MIN_BLOCKS) compact_kernel_bounded(lookback_state s, std::size_t tiles) {
  compact_tile<S, E>(s, tiles);
}

/// The persistent, pipelined form ("bTHREADSxROWSsSTAGES"): as many blocks as fit on the GPU, each
/// with STAGES tile buffers in shared memory that Hopper's bulk copy engine (cp.async.bulk, one
/// instruction per tile, completion counted on an mbarrier) fills while the block works on an
/// earlier tile. Registers then no longer bound the bytes in flight: an SM has up to
/// blocks × (STAGES − 1) tiles of loads outstanding while its blocks rank, look back and store.
/// A buffer is also the tile's staging area once its elements are in registers.
///
/// Thread 0 takes tile ids from the counter (in order, one per refill, fetched an iteration ahead so
/// the atomic's latency is hidden) and starts the copy; a block processes its tiles in the order it
/// took them. Forward progress still holds: the smallest unfinished tile is the current tile of the
/// block that took it (every earlier tile of that block is finished), and it waits on finished tiles
/// only. In place stays safe: a tile's copy completes before its block publishes anything, and
/// outputs never reach past their own tile's input. A run takes tiles + blocks × STAGES ids: every
/// block ends holding STAGES ids past the last tile.
template <int THREADS_, int ROWS_, int STAGES_, class W = spin>
struct bulk_shape : W {
  static constexpr int THREADS = THREADS_, ROWS = ROWS_, WARPS = THREADS / 32, STAGES = STAGES_;
  static_assert(ROWS % 2 == 0, "row counts are packed two per word");
  template <class E> static constexpr int tile() { return THREADS * ROWS * VEC<E>; }
};

template <class S, class E>
__global__ void __launch_bounds__(S::THREADS) compact_bulk_kernel(lookback_state s, std::size_t tiles) {
  namespace ptx = ::cuda::ptx;
  constexpr int V = VEC<E>, ROWS = S::ROWS, STAGES = S::STAGES;
  constexpr int T = S::template tile<E>();
  constexpr unsigned BYTES = T * sizeof(E), STRIDE = BYTES / 16 + 1; // a buffer, in vectors: the tile + 1
  __shared__ std::uint64_t sh_full[STAGES];
  __shared__ std::size_t sh_tile[STAGES];
  __shared__ unsigned sh_counts[ROWS / 2 * S::WARPS];
  __shared__ std::uint32_t sh_prefix;
  extern __shared__ uint4 sh_buffers[];

  const auto* in = static_cast<const E*>(s.in);
  const std::size_t full_tiles = s.n / T;
  // Thread 0: buffer b gets tile `id` (relative to the run's base). The partial last tile and ids
  // past the end get no copy: the barrier completes on the arrival alone.
  auto fill = [&](int b, unsigned long long id) {
    const std::size_t tile = id - s.base;
    sh_tile[b] = tile;
    if (tile < full_tiles) {
      ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &sh_full[b], BYTES);
      ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, sh_buffers + b * STRIDE, in + tile * T, BYTES, &sh_full[b]);
    } else {
      (void)ptx::mbarrier_arrive(&sh_full[b]);
    }
  };
  if (threadIdx.x == 0) {
    for (int b = 0; b < STAGES; ++b) ptx::mbarrier_init(&sh_full[b], 1);
    ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    for (int b = 0; b < STAGES; ++b) fill(b, atomicAdd(s.counter, 1ull));
  }
  __syncthreads();
  for (unsigned it = 0;; ++it) {
    const int b = static_cast<int>(it % STAGES);
    while (!ptx::mbarrier_try_wait_parity(&sh_full[b], (it / STAGES) & 1u)) {
    }
    const std::size_t tile = sh_tile[b];
    if (tile >= tiles) break; // ids come in order: every later buffer holds an id past the end too
    unsigned long long next = 0;
    if (threadIdx.x == 0) next = atomicAdd(s.counter, 1ull); // used at the end of the iteration
    uint4* buffer = sh_buffers + b * STRIDE;
    E v[ROWS][V];
    bool ok[ROWS][V];
    if (tile < full_tiles) load_rows<S, E, V>([&](int i) { return buffer[i]; }, v, ok);
    else load_partial<S, E, V>(in, tile * T, s.n, v, ok);
    finish_tile<S, E, V>(s, tile, tiles, v, ok, sh_counts, &sh_prefix, buffer);
    // The buffer's generic reads and writes (the staging) come before the copy engine writes it again.
    ptx::fence_proxy_async(ptx::space_shared);
    __syncthreads();
    if (threadIdx.x == 0) fill(b, next);
  }
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

/// The tile shapes a run may choose (lookback_shapes() lists the same names, the default first), by
/// name: "THREADSxROWS", "mK" where __launch_bounds__ asks for K resident blocks per SM (the compiler
/// then caps the registers; a few spill to L1), and "b…sSTAGES" for the persistent bulk-copy form.
template <class F>
void by_shape(const std::string& name, F&& f) {
  if (name == "128x8m8z") f(shape<128, 8, 8, sleep>{});
  else if (name == "256x8m3z") f(shape<256, 8, 3, sleep>{});
  else if (name == "128x16m4z") f(shape<128, 16, 4, sleep>{});
  else if (name == "128x24z") f(shape<128, 24, 0, sleep>{});
  else if (name == "128x20z") f(shape<128, 20, 0, sleep>{});
  else if (name == "96x16z") f(shape<96, 16, 0, sleep>{});
  else if (name == "64x16z") f(shape<64, 16, 0, sleep>{});
  else if (name == "64x32z") f(shape<64, 32, 0, sleep>{});
  else if (name == "128x16zc") f(shape<128, 16, 0, wait_policy<1, 1000, 50>>{});
  else if (name == "128x16zf") f(shape<128, 16, 0, wait_policy<1, 700, 100>>{});
  else if (name == "256x8za") f(shape<256, 8, 0, wait_policy<1, 500, 100>>{});
  else if (name == "256x8zb") f(shape<256, 8, 0, wait_policy<1, 1500, 100>>{});
  else if (name == "256x8zc") f(shape<256, 8, 0, wait_policy<1, 1000, 50>>{});
  else if (name == "256x8zd") f(shape<256, 8, 0, wait_policy<1, 1000, 250>>{});
  else if (name == "256x8ze") f(shape<256, 8, 0, wait_policy<1, 2000, 200>>{});
  else if (name == "128x16z") f(shape<128, 16, 0, sleep>{});
  else if (name == "512x8z") f(shape<512, 8, 0, sleep>{});
  else if (name == "256x4z") f(shape<256, 4, 0, sleep>{});
  else if (name == "128x8m8z4") f(shape<128, 8, 8, sleep4>{});
  else if (name == "384x4z") f(shape<384, 4, 0, sleep>{});
  else if (name == "256x8z") f(shape<256, 8, 0, sleep>{});
  else if (name == "b256x8s2z") f(bulk_shape<256, 8, 2, sleep>{});
  else if (name == "b256x8s2z4") f(bulk_shape<256, 8, 2, sleep4>{});
  else if (name == "b256x4s3z") f(bulk_shape<256, 4, 3, sleep>{});
  else if (name == "b128x8s3z") f(bulk_shape<128, 8, 3, sleep>{});
  else if (name == "b256x4s3") f(bulk_shape<256, 4, 3>{});
  else if (name == "b256x4s2") f(bulk_shape<256, 4, 2>{});
  else if (name == "b128x8s3") f(bulk_shape<128, 8, 3>{});
  else if (name == "b256x8s2") f(bulk_shape<256, 8, 2>{});
  else if (name == "b512x4s2") f(bulk_shape<512, 4, 2>{});
  else if (name == "b128x4s4") f(bulk_shape<128, 4, 4>{});
  else if (name == "128x8m8") f(shape<128, 8, 8>{});
  else if (name == "256x4m6") f(shape<256, 4, 6>{});
  else if (name == "128x8") f(shape<128, 8>{});
  else if (name == "256x4") f(shape<256, 4>{});
  else if (name == "256x8") f(shape<256, 8>{});
  else if (name == "512x4") f(shape<512, 4>{});
  else if (name == "512x8") f(shape<512, 8>{});
  else throw error("winnow::cuda::lookback: unknown tile shape '" + name + "'");
}

template <class S>
concept bulk = requires { S::STAGES; };

/// Calls f(kernel, tile elements, dynamic shared bytes, threads, stages) for the shape and element
/// size; stages is 0 for the one-tile-per-block kernels.
template <class F>
void with_kernel(unsigned words, const std::string& shape_name, F&& f) {
  by_shape(shape_name, [&](auto sh) {
    using S = decltype(sh);
    by_words(words, [&](auto e) {
      using E = decltype(e);
      constexpr int T = S::template tile<E>();
      constexpr std::size_t buffer = (T / VEC<E> + 1) * sizeof(uint4);
      if constexpr (bulk<S>) f(compact_bulk_kernel<S, E>, std::size_t{T}, S::STAGES * buffer, S::THREADS, S::STAGES);
      else if constexpr (S::MIN_BLOCKS > 0) f(compact_kernel_bounded<S, E>, std::size_t{T}, buffer, S::THREADS, 0);
      else f(compact_kernel<S, E>, std::size_t{T}, buffer, S::THREADS, 0);
    });
  });
}

} // namespace

std::vector<std::string> lookback_shapes() {
  return {"128x8m8", "256x4m6", "128x8", "256x4", "256x8", "512x4", "512x8",
          "b256x4s3", "b256x4s2", "b128x8s3", "b256x8s2", "b512x4s2", "b128x4s4",
          "128x8m8z", "128x8m8z4", "384x4z", "256x8z", "b256x8s2z", "b256x8s2z4", "b256x4s3z", "b128x8s3z",
          "256x8m3z", "256x8za", "256x8zb", "256x8zc", "256x8zd", "256x8ze", "128x16z", "512x8z", "256x4z",
          "128x16m4z", "128x24z", "128x20z", "96x16z", "64x16z", "64x32z", "128x16zc", "128x16zf"};
}

lookback_launch lookback_prepare(unsigned words, const std::string& shape_name) {
  lookback_launch launch;
  with_kernel(words, shape_name, [&](auto kernel, std::size_t tile, std::size_t shared, int threads, int stages) {
    // Over 48 KiB of dynamic shared memory needs the kernel's consent: asked here, outside the
    // timed run, so that no host call sits between the run's start event and its launch.
    WINNOW_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared)));
    launch.tile = tile;
    launch.stages = static_cast<unsigned>(stages);
    if (stages > 0) {
      int device = 0, sms = 0, per_sm = 0;
      WINNOW_CUDA_CHECK(cudaGetDevice(&device));
      WINNOW_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
      WINNOW_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, shared));
      if (per_sm < 1) throw error("winnow::cuda::lookback: tile shape '" + shape_name + "' does not fit on an SM of this GPU");
      launch.blocks = static_cast<unsigned>(sms * per_sm);
    }
  });
  return launch;
}

unsigned long long lookback_compact(const lookback_state& s, unsigned words, const std::string& shape_name,
                                    const lookback_launch& launch, cudaStream_t stream) {
  if (s.n == 0) return 0;
  const std::size_t tiles = (s.n + launch.tile - 1) / launch.tile;
  unsigned long long taken = tiles;
  with_kernel(words, shape_name, [&](auto kernel, std::size_t, std::size_t shared, int threads, int stages) {
    std::size_t blocks = tiles;
    if (stages > 0) {
      blocks = std::min<std::size_t>(tiles, launch.blocks);
      taken += blocks * static_cast<unsigned>(stages);
    }
    kernel<<<static_cast<unsigned>(blocks), threads, shared, stream>>>(s, tiles);
  });
  check_launch("winnow::cuda::lookback", stream);
  return taken;
}

} // namespace winnow::cuda
