#pragma once
// The dispatch layer of kernels/lookback.cu: winnow's single-pass stable compaction (decoupled
// look-back over tiles, after Merrill & Garland's single-pass prefix scan). Host-callable; every
// pointer is a device pointer (d_ prefix), every launch goes to `stream` and is checked.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace winnow::cuda {

/// Device state of the single-pass compaction. `status`: one 64-bit word per tile — the run's epoch
/// (30 bits), the tile's state (1 aggregate, 2 inclusive prefix) and its value (32 bits) — so no run
/// clears it: a word of another epoch reads as "not yet". `counter`: tiles taken so far, over all
/// runs; run r takes ids [base, base + tiles).
struct lookback_state {
  const void* in = nullptr;
  void* out = nullptr; ///< == in: in place
  std::size_t n = 0;
  unsigned long long* status = nullptr;
  unsigned long long* counter = nullptr;
  unsigned long long* count = nullptr; ///< the kept elements, written by the last tile
  std::uint32_t epoch = 1;             ///< 1 … 2^30 − 1
  unsigned long long base = 0;
  /// A block asks L2 for the input of the tile this many ids after its own (0: not). Tiles are taken
  /// in order, so a wave or so ahead (cuda/lookback: 2 tiles per SM) the tile is in L2 when its block
  /// loads it; much further and L2 evicts it first.
  std::size_t prefetch = 0;
  unsigned pause_ns = 2000; ///< the "sleep" wait's pause before the first read of predecessors' states
};

/// Which kernel a run uses: element size, tile shape, look-back wait and store (the lists below).
struct lookback_kernel {
  unsigned words = 1; ///< 32-bit words per element: 1, 2 or 4
  std::string shape, wait, store;
  std::size_t resident = 0; ///< a persistent shape's grid: its resident blocks (set by lookback_prepare)
  std::size_t sms = 0;      ///< the device's SMs (set by lookback_prepare)
};

/// The tile shapes, "THREADSxROWS" (threads per block × 16-byte vectors per thread; "mK": K blocks
/// per SM asked of the compiler; a leading "p": persistent blocks that load the next tile while they
/// finish the current one), the default first.
[[nodiscard]] std::vector<std::string> lookback_shapes();
/// How the look-back waits for predecessors' states, the default first: "sleep" (pauses before the
/// first read and between reads, as CUB tunes it for sm_90) or "spin" (re-reads at once).
[[nodiscard]] std::vector<std::string> lookback_waits();
/// How survivors reach the output, the default first: "staged" (in order through shared memory, then
/// whole aligned 16-byte vectors), "direct" (each thread stores its own survivors at their places,
/// 4, 8 or 16 bytes at a time; no shared memory: on the H200 faster at 50 % valid, slower at 90 %) or
/// "auto" (per tile: staged where it keeps ≥ 5/8 of its elements, else direct).
[[nodiscard]] std::vector<std::string> lookback_stores();
/// Elements per tile for elements of `words` 32-bit words (1, 2 or 4) in tiles of `shape`
/// (THREADS · ROWS · 16 bytes of input: 32 KiB for 128x16m3).
[[nodiscard]] std::size_t lookback_tile(unsigned words, const std::string& shape);
/// Once before runs of this kernel (not timed): lets a staged kernel have its staging area (over 48
/// KiB of dynamic shared memory for the larger shapes), sets `sms` and a persistent shape's `resident`.
void lookback_prepare(lookback_kernel& k);
/// The one kernel of a run: every tile loads its input once (16-byte loads), ranks its valid
/// elements, learns its output offset from its predecessors' published states, and writes its
/// survivors once. Returns how many tile ids the run takes from `counter` (the next run's base moves
/// by as many): the tiles, and for a persistent shape one more per block.
[[nodiscard]] unsigned long long lookback_compact(const lookback_state& s, const lookback_kernel& k,
                                                  cudaStream_t stream);

} // namespace winnow::cuda
