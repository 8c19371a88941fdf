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
};

/// The tile shapes, the default first (an experiment: see the commit that removes the "b…" shapes).
[[nodiscard]] std::vector<std::string> lookback_shapes();

/// How a shape is launched, from lookback_prepare.
struct lookback_launch {
  std::size_t tile = 0;  ///< elements per tile
  unsigned blocks = 0;   ///< persistent shapes: the blocks that fit on the GPU at once (0: a block per tile)
  unsigned stages = 0;   ///< persistent shapes: tile buffers per block
};

[[nodiscard]] lookback_launch lookback_prepare(unsigned words, const std::string& shape);
/// Returns the tile ids the run took from the counter.
unsigned long long lookback_compact(const lookback_state& s, unsigned words, const std::string& shape,
                                    const lookback_launch& launch, cudaStream_t stream);

} // namespace winnow::cuda
