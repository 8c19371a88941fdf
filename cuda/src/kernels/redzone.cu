// Redzone stream compaction (Bontes & Gain 2024): Algorithm 1 on one block, Algorithm 2 over the
// whole GPU with Algorithm 3's load balancing, and the §6 optimizations as template switches.
// A is the stream, R the removal list (k unique indices), z = n − k; the red zone Z = A[z, n).
//   phase 1 (mark):    A[r] = 0 for r ∈ R with r ≥ z — deleted red-zone items are no sources.
//   phase 2 (fill):    pair Z[i] with R[i]: case A fills a hole, B does nothing, C (hole, deleted
//                      source) keeps R[i] as a destination orphan in R', D (zone index, kept
//                      source) keeps Z[i] as a source orphan in Z'; both lists in place.
//   phase 3 (orphans): A[R'[t]] = Z'[t].
// Every phase is one kernel: the kernel boundary is the global synchronization the paper needs.
#include <algorithm>

#include "../check.hpp"
#include "../dispatch/redzone.hpp"
#include "block.cuh"
#include "launch.cuh"

namespace winnow::cuda {
namespace {

using detail::global_thread;
using detail::grid_threads;
using detail::lane_id;
using detail::lanemask_lt;
using detail::warp_id;

// ---- phase 1 ---------------------------------------------------------------------------------

/// R is read with ordinary loads (not streamed): phase 2 reads it again and, for k up to a few
/// million, finds it in L2.
template <int BLOCK> __global__ void __launch_bounds__(BLOCK) mark_kernel(redzone_state s) {
  __shared__ unsigned warp_sums[BLOCK / 32 + 1];
  const std::size_t z = s.n - s.k;
  unsigned marks = 0;
  const std::size_t quads = s.k / 4;
  const auto* r4 = reinterpret_cast<const uint4*>(s.r);
  auto mark = [&](std::uint32_t r) {
    if (r >= z) {
      s.a[r] = 0;
      ++marks;
    }
  };
  for (std::size_t q = global_thread(); q < quads; q += grid_threads()) {
    const uint4 v = r4[q];
    mark(v.x);
    mark(v.y);
    mark(v.z);
    mark(v.w);
  }
  for (std::size_t i = 4 * quads + global_thread(); i < s.k; i += grid_threads()) mark(s.r[i]);
  // One atomic per block, for the tests' Lemma 4.1 check; not on the hot path.
  const unsigned block_marks = detail::block_sum<BLOCK>(marks, warp_sums);
  if (threadIdx.x == 0 && block_marks) atomicAdd(s.stats, static_cast<unsigned long long>(block_marks));
}

// ---- phase 2, Algorithm 2 --------------------------------------------------------------------

/// The last block to finish phase 2 turns the per-batch orphan counts into the exclusive sums J and
/// K that phase 3 searches (Alg. 2 line 17, done once instead of by every processor).
template <int BLOCK>
__device__ void scan_orphan_counts(const redzone_state& s, std::size_t batches, unsigned* warp_sums) {
  std::uint32_t* J = s.prefix;
  std::uint32_t* K = s.prefix + batches + 1;
  unsigned carry_j = 0, carry_k = 0;
  for (std::size_t base = 0; base < batches; base += BLOCK) {
    const std::size_t b = base + threadIdx.x;
    // __ldcg: other blocks wrote these; read them from L2, not from a stale L1 line.
    const unsigned j = b < batches ? __ldcg(s.counts + 2 * b) : 0u;
    const unsigned k = b < batches ? __ldcg(s.counts + 2 * b + 1) : 0u;
    unsigned total_j, total_k;
    const unsigned ej = detail::block_exclusive_sum<BLOCK>(j, warp_sums, total_j);
    const unsigned ek = detail::block_exclusive_sum<BLOCK>(k, warp_sums, total_k);
    if (b < batches) {
      J[b] = carry_j + ej;
      K[b] = carry_k + ek;
    }
    carry_j += total_j;
    carry_k += total_k;
  }
  if (threadIdx.x == 0) {
    J[batches] = carry_j;
    K[batches] = carry_k;
    // Lemma 4.2 says the totals agree; they do not when R has duplicates or indices ≥ n.
    if (carry_j != carry_k) s.stats[1] = 1;
    *s.done = 0; // ready for the next run
  }
}

template <bool EARLY, bool SHARED, bool PREFETCH>
__global__ void __launch_bounds__(tuning::redzone_block)
    fill_kernel(redzone_state s, std::size_t batch, std::size_t batches) {
  constexpr int B = tuning::redzone_block;
  constexpr int I = tuning::redzone_items;
  constexpr int TILE = B * I;
  static_assert(TILE < 65536, "orphan counts are packed in 16 bits per tile");
  constexpr int CAP = SHARED ? tuning::redzone_shared_orphans : EARLY ? TILE : 1;
  static_assert(!SHARED || CAP >= TILE, "a shared list must take at least one tile's orphans");
  __shared__ std::uint32_t sh_src[CAP], sh_dst[CAP];
  __shared__ unsigned warp_sums[B / 32 + 1];
  __shared__ bool sh_last;

  const std::size_t z = s.n - s.k;
  std::uint32_t* zone = s.a + z;
  const std::size_t begin = blockIdx.x * batch;
  const std::size_t end = std::min(s.k, begin + batch);
  // In place: this batch's Z' is zone[begin, …), its R' is r[begin, …). The write index never
  // passes the read index because every orphan comes from an item already read.
  std::uint32_t* z_out = zone + begin;
  std::uint32_t* r_out = s.r + begin;
  unsigned gj = 0, gk = 0; // orphans written in place so far
  unsigned created_j = 0, created_k = 0;
  unsigned nsrc = 0, ndst = 0; // orphans waiting in shared memory (SHARED)

  std::uint32_t src[I] = {}, dst[I] = {}, next_src[I] = {}, next_dst[I] = {};
  auto load = [&](std::size_t base, std::uint32_t(&sv)[I], std::uint32_t(&dv)[I]) {
#pragma unroll
    for (int q = 0; q < I; ++q) {
      const std::size_t i = base + static_cast<std::size_t>(q * B) + threadIdx.x;
      if (i < end) {
        sv[q] = zone[i];
        dv[q] = s.r[i];
      }
    }
  };
  if (PREFETCH) load(begin, next_src, next_dst);

  for (std::size_t base = begin; base < end; base += TILE) {
    if (PREFETCH) {
#pragma unroll
      for (int q = 0; q < I; ++q) {
        src[q] = next_src[q];
        dst[q] = next_dst[q];
      }
      // §6 prefetching: the next tile is in flight while this one is worked on. Only this
      // thread's own items, so no barrier is needed for it.
      if (base + TILE < end) load(base + TILE, next_src, next_dst);
    } else {
      load(base, src, dst);
    }

    bool is_d[I], is_c[I];
    unsigned nd = 0, nc = 0;
#pragma unroll
    for (int q = 0; q < I; ++q) {
      const std::size_t i = base + static_cast<std::size_t>(q * B) + threadIdx.x;
      is_d[q] = is_c[q] = false;
      if (i >= end) continue;
      if (dst[q] >= z) {
        is_d[q] = src[q] != 0; // D: a kept source without a destination; else B: nothing
      } else if (src[q] == 0) {
        is_c[q] = true; // C: a hole without a source
      } else {
        s.a[dst[q]] = src[q]; // A: fill the hole
      }
      nd += is_d[q];
      nc += is_c[q];
    }
    // The block scan ends with a barrier: every read of this tile is done before any orphan is
    // written in place (§4.4: this synchronization cannot be skipped).
    unsigned total;
    const unsigned off = detail::block_exclusive_sum<B>(nd | nc << 16, warp_sums, total);
    unsigned od = off & 0xFFFF, oc = off >> 16;
    const unsigned td = total & 0xFFFF, tc = total >> 16;
    created_j += td;
    created_k += tc;

    if constexpr (!EARLY && !SHARED) {
      // Algorithm 2 as written: orphans straight to their in-place slots.
#pragma unroll
      for (int q = 0; q < I; ++q) {
        if (is_d[q]) z_out[gj + od++] = src[q];
        if (is_c[q]) r_out[gk + oc++] = dst[q];
      }
      gj += td;
      gk += tc;
    } else if constexpr (!SHARED) {
      // Early pairing inside the tile: the t-th source orphan fills the t-th destination orphan;
      // only the unpaired rest goes to the in-place lists.
#pragma unroll
      for (int q = 0; q < I; ++q) {
        if (is_d[q]) sh_src[od++] = src[q];
        if (is_c[q]) sh_dst[oc++] = dst[q];
      }
      __syncthreads();
      const unsigned m = min(td, tc);
      for (unsigned t = threadIdx.x; t < m; t += B) s.a[sh_dst[t]] = sh_src[t];
      for (unsigned t = m + threadIdx.x; t < td; t += B) z_out[gj + t - m] = sh_src[t];
      for (unsigned t = m + threadIdx.x; t < tc; t += B) r_out[gk + t - m] = sh_dst[t];
      gj += td - m;
      gk += tc - m;
      __syncthreads();
    } else {
      // Orphans wait in shared memory; a full list is flushed in place (coalesced).
      const bool flush_src = nsrc + td > CAP, flush_dst = ndst + tc > CAP;
      if (flush_src) {
        for (unsigned t = threadIdx.x; t < nsrc; t += B) z_out[gj + t] = sh_src[t];
        gj += nsrc;
        nsrc = 0;
      }
      if (flush_dst) {
        for (unsigned t = threadIdx.x; t < ndst; t += B) r_out[gk + t] = sh_dst[t];
        gk += ndst;
        ndst = 0;
      }
      if (flush_src || flush_dst) __syncthreads();
#pragma unroll
      for (int q = 0; q < I; ++q) {
        if (is_d[q]) sh_src[nsrc + od++] = src[q];
        if (is_c[q]) sh_dst[ndst + oc++] = dst[q];
      }
      nsrc += td;
      ndst += tc;
      __syncthreads();
      if constexpr (EARLY) {
        // Pair from the tails, so what is left stays at the front of both lists.
        const unsigned m = min(nsrc, ndst);
        for (unsigned t = threadIdx.x; t < m; t += B) s.a[sh_dst[ndst - 1 - t]] = sh_src[nsrc - 1 - t];
        nsrc -= m;
        ndst -= m;
        __syncthreads();
      }
    }
  }
  if constexpr (SHARED) {
    for (unsigned t = threadIdx.x; t < nsrc; t += B) z_out[gj + t] = sh_src[t];
    for (unsigned t = threadIdx.x; t < ndst; t += B) r_out[gk + t] = sh_dst[t];
    gj += nsrc;
    gk += ndst;
  }

  if (threadIdx.x == 0) {
    s.counts[2 * blockIdx.x] = gj;
    s.counts[2 * blockIdx.x + 1] = gk;
    s.created[2 * blockIdx.x] = created_j;
    s.created[2 * blockIdx.x + 1] = created_k;
    __threadfence(); // the counts are visible before the ticket is taken
    sh_last = atomicAdd(s.done, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (sh_last) {
    __threadfence();
    scan_orphan_counts<B>(s, batches, warp_sums);
  }
}

// ---- phase 3, Algorithm 3 --------------------------------------------------------------------

/// Algorithm 3: the batch b with S[b] ≤ t < S[b + 1]. No batch holds more than s orphans, so b ≥
/// t / s (the paper's start); the paper then walks forward, which is O(|P|) when orphans cluster
/// in late batches, so we binary-search [t / s, |P|) instead.
__device__ __forceinline__ std::size_t load_balance(const std::uint32_t* S, std::size_t batches, std::size_t t,
                                                    std::size_t s) {
  std::size_t lo = min(t / s, batches - 1), hi = batches - 1; // answer in [lo, hi]
  while (lo < hi) {
    const std::size_t mid = (lo + hi + 1) / 2;
    if (__ldg(S + mid) <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

__global__ void __launch_bounds__(tuning::stream_block)
    orphans_kernel(redzone_state s, std::size_t batch, std::size_t batches) {
  const std::uint32_t* J = s.prefix;
  const std::uint32_t* K = s.prefix + batches + 1;
  const std::size_t total = J[batches];
  if (K[batches] != total) return; // reported through stats[1]
  const std::size_t z = s.n - s.k;
  const std::uint32_t* zone = s.a + z;
  for (std::size_t t = global_thread(); t < total; t += grid_threads()) {
    const std::size_t bj = load_balance(J, batches, t, batch);
    const std::size_t bk = load_balance(K, batches, t, batch);
    const std::uint32_t src = zone[bj * batch + (t - J[bj])];
    const std::uint32_t dst = s.r[bk * batch + (t - K[bk])];
    s.a[dst] = src;
  }
}

// ---- Algorithm 1: one block ------------------------------------------------------------------

/// Phase 2 on one block of 1024 threads. Orphan slots by warp ballot and popc: a thread's slot is
/// the popc of the lower lanes' ballots plus the warps before it (a 32-entry scan).
__global__ void __launch_bounds__(tuning::single_block) fill1_kernel(redzone_state s) {
  constexpr int B = tuning::single_block;
  constexpr int I = tuning::single_items;
  constexpr int TILE = B * I;
  __shared__ unsigned warp_d[B / 32], warp_c[B / 32];
  __shared__ unsigned off_d[B / 32 + 1], off_c[B / 32 + 1];
  const std::size_t z = s.n - s.k;
  std::uint32_t* zone = s.a + z;
  unsigned j = 0, kk = 0; // |Z'| and |R'| so far (block-uniform)

  for (std::size_t base = 0; base < s.k; base += TILE) {
    std::uint32_t src[I] = {}, dst[I] = {};
    bool is_d[I], is_c[I];
    unsigned lane_d = 0, lane_c = 0, warp_total_d = 0, warp_total_c = 0;
#pragma unroll
    for (int q = 0; q < I; ++q) {
      const std::size_t i = base + static_cast<std::size_t>(q * B) + threadIdx.x;
      is_d[q] = is_c[q] = false;
      if (i < s.k) {
        src[q] = zone[i];
        dst[q] = s.r[i];
        if (dst[q] >= z) is_d[q] = src[q] != 0;
        else if (src[q] == 0) is_c[q] = true;
        else s.a[dst[q]] = src[q];
      }
      const unsigned bd = __ballot_sync(detail::full_mask, is_d[q]);
      const unsigned bc = __ballot_sync(detail::full_mask, is_c[q]);
      lane_d += __popc(bd & lanemask_lt());
      lane_c += __popc(bc & lanemask_lt());
      warp_total_d += __popc(bd);
      warp_total_c += __popc(bc);
    }
    if (lane_id() == 0) {
      warp_d[warp_id()] = warp_total_d;
      warp_c[warp_id()] = warp_total_c;
    }
    __syncthreads(); // also: every read of this tile is done before the in-place writes below
    if (warp_id() == 0) {
      const unsigned d = warp_d[lane_id()], c = warp_c[lane_id()];
      const unsigned id = detail::warp_inclusive_sum(d), ic = detail::warp_inclusive_sum(c);
      off_d[lane_id()] = id - d;
      off_c[lane_id()] = ic - c;
      if (lane_id() == 31) {
        off_d[32] = id;
        off_c[32] = ic;
      }
    }
    __syncthreads();
    unsigned slot_d = j + off_d[warp_id()] + lane_d, slot_c = kk + off_c[warp_id()] + lane_c;
#pragma unroll
    for (int q = 0; q < I; ++q) {
      if (is_d[q]) zone[slot_d++] = src[q];
      if (is_c[q]) s.r[slot_c++] = dst[q];
    }
    j += off_d[32];
    kk += off_c[32];
    __syncthreads(); // off_* and warp_* are rewritten by the next tile
  }
  if (threadIdx.x == 0) {
    s.counts[0] = s.created[0] = j;
    s.counts[1] = s.created[1] = kk;
    s.prefix[0] = 0;
    s.prefix[1] = j;
    s.prefix[2] = 0;
    s.prefix[3] = kk;
    if (j != kk) s.stats[1] = 1;
  }
}

__global__ void __launch_bounds__(tuning::single_block) orphans1_kernel(redzone_state s) {
  const unsigned total = s.counts[0];
  if (s.counts[1] != total) return;
  const std::uint32_t* zone = s.a + (s.n - s.k);
  for (unsigned t = threadIdx.x; t < total; t += blockDim.x) s.a[s.r[t]] = zone[t];
}

using kernel_fn = void (*)(redzone_state, std::size_t, std::size_t);

kernel_fn pick_kernel(const redzone2_config& c) {
  const int i = (c.early ? 4 : 0) | (c.shared ? 2 : 0) | (c.prefetch ? 1 : 0);
  static constexpr kernel_fn table[8] = {fill_kernel<false, false, false>, fill_kernel<false, false, true>,
                                         fill_kernel<false, true, false>,  fill_kernel<false, true, true>,
                                         fill_kernel<true, false, false>,  fill_kernel<true, false, true>,
                                         fill_kernel<true, true, false>,   fill_kernel<true, true, true>};
  return table[i];
}

// ---- the traffic model's pairs ------------------------------------------------------------------

/// How the pairs R[i] ↔ z + i fall (redzone_pairs.hpp): counts[0] R[i] in the zone, [1] outside with
/// item z + i kept, [2] outside with it removed, [3] inside with it kept. removed_bits: bit j set
/// for each j in R. Each warp sums its lanes' counts and adds them once.
__global__ void pairs_kernel(const std::uint32_t* __restrict__ r, std::size_t k, std::size_t z,
                             const unsigned* __restrict__ removed_bits, unsigned long long* counts) {
  unsigned zone = 0, hole_kept = 0, hole_removed = 0, zone_kept = 0;
  for (std::size_t i = global_thread(); i < k; i += grid_threads()) {
    const std::size_t item = z + i;
    const bool inside = r[i] >= z, kept = ((removed_bits[item >> 5] >> (item & 31)) & 1u) == 0;
    zone += inside;
    hole_kept += !inside && kept;
    hole_removed += !inside && !kept;
    zone_kept += inside && kept;
  }
  const unsigned sums[4] = {detail::warp_sum(zone), detail::warp_sum(hole_kept), detail::warp_sum(hole_removed),
                            detail::warp_sum(zone_kept)};
  if (lane_id() == 0)
    for (int c = 0; c < 4; ++c)
      if (sums[c]) atomicAdd(counts + c, static_cast<unsigned long long>(sums[c]));
}

} // namespace

int redzone2_fill_occupancy(const redzone2_config& c) {
  int blocks = 0;
  WINNOW_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &blocks, reinterpret_cast<const void*>(pick_kernel(c)), tuning::redzone_block, 0));
  return std::max(blocks, 1);
}

void redzone_mark(const redzone_state& s, unsigned blocks, bool single_block, cudaStream_t stream) {
  if (s.k == 0 || s.k == s.n) return;
  if (single_block) {
    mark_kernel<tuning::single_block><<<1, tuning::single_block, 0, stream>>>(s);
  } else {
    mark_kernel<tuning::stream_block><<<blocks, tuning::stream_block, 0, stream>>>(s);
  }
  check_launch("winnow::cuda::redzone mark_kernel", stream);
}

void redzone2_fill(const redzone_state& s, const redzone2_config& c, cudaStream_t stream) {
  if (s.k == 0 || s.k == s.n) return;
  pick_kernel(c)<<<static_cast<unsigned>(c.batches), tuning::redzone_block, 0, stream>>>(s, c.batch, c.batches);
  check_launch("winnow::cuda::redzone2 fill_kernel", stream);
}

void redzone2_orphans(const redzone_state& s, const redzone2_config& c, cudaStream_t stream) {
  if (s.k == 0 || s.k == s.n) return;
  orphans_kernel<<<c.orphan_blocks, tuning::stream_block, 0, stream>>>(s, c.batch, c.batches);
  check_launch("winnow::cuda::redzone2 orphans_kernel", stream);
}

void redzone1_fill(const redzone_state& s, cudaStream_t stream) {
  if (s.k == 0 || s.k == s.n) return;
  fill1_kernel<<<1, tuning::single_block, 0, stream>>>(s);
  check_launch("winnow::cuda::redzone1 fill1_kernel", stream);
}

void redzone1_orphans(const redzone_state& s, cudaStream_t stream) {
  if (s.k == 0 || s.k == s.n) return;
  orphans1_kernel<<<1, tuning::single_block, 0, stream>>>(s);
  check_launch("winnow::cuda::redzone1 orphans1_kernel", stream);
}

void redzone_pairs_counts(const std::uint32_t* d_r, std::size_t k, std::size_t z, const unsigned* d_removed_bits,
                          unsigned long long* d_counts, cudaStream_t stream) {
  if (k == 0) return;
  pairs_kernel<<<detail::stream_grid(k), tuning::stream_block, 0, stream>>>(d_r, k, z, d_removed_bits, d_counts);
  check_launch("winnow::cuda::redzone pairs_kernel", stream);
}

} // namespace winnow::cuda
