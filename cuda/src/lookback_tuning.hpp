#pragma once
// cuda/lookback's tuning that depends on the card, chosen on the card: a tile shape or a look-back
// pause given as "auto" is settled once per process (and kind of kernel) by a short probe that times
// the candidates below on the device itself, so no card's best setting is hard-coded for another.
// Why these two: on the H100 at 2^28, 128x16m5 with a 3000 ns pause ran 1.8-3.6 % faster than the old
// default (128x16m4, 2000 ns) at every density, while 3000 ns with 128x16m4 lost 6 % at 10 % valid;
// on the H200 128x16m5 won at 2000 ns (docs/findings.md, both). The prefetch distance is not probed: 2 and 4
// tiles ahead measured the same on the H200.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace winnow::cuda {

/// One setting of the probed knobs.
struct lookback_tuning {
  std::string shape;     ///< one of lookback_shapes()
  unsigned pause_ns = 0; ///< the sleep wait's pause before its first read of predecessors' states
  bool operator==(const lookback_tuning&) const = default;
};

/// What "auto" settled for, and what the choice weighed (the probe's medians; empty where nothing was
/// probed), for the record's notes.
struct lookback_choice {
  lookback_tuning tuning;
  std::string weighed;
};

/// What a run asked for: a knob given, or nullopt where it said "auto".
struct lookback_request {
  std::optional<std::string> shape;
  std::optional<unsigned> pause_ns;
};

/// The settings the probe times for `r`, the default (128x16m4, 2000 ns) first: the shapes
/// 128x16m4 and 128x16m5 by the pauses 1000, 2000 and 3000 ns, a given knob held at its value.
/// A wait that never pauses (`pauses` false) is not timed over pauses: they would all run alike.
[[nodiscard]] std::vector<lookback_tuning> lookback_candidates(const lookback_request& r, bool pauses);

/// Which candidate the probe keeps, from ns[c][d], candidate c's median time on density d: the
/// smallest sum over the densities. The first candidate (the default) stays unless another is faster
/// by more than `margin` (a fraction of its time), so that noise does not move the choice between runs.
[[nodiscard]] std::size_t fastest_candidate(const std::vector<std::vector<double>>& ns, double margin);

/// What `r`'s "auto" knobs settle for on this device, for kernels of `words` 32-bit words an
/// element, `wait` and `store`, prefetching `prefetch` tiles per SM ahead. The first call for a kind
/// of kernel probes: every candidate runs out of place on a stream of 8 × the L2's size (at least
/// 256 MiB, within half the free memory) made on the device, 10, 50 and 90 %
/// valid, after 200 ms of the default's runs, in rounds that take the candidates in turn (a clock
/// still rising favours none); the fastest by the medians is kept for the process. Nothing given as
/// "auto": `r` as given, no probe. No room on the device for the probe: the default, not kept.
[[nodiscard]] lookback_choice tuned_lookback(const lookback_request& r, unsigned words, const std::string& wait,
                                             const std::string& store, unsigned prefetch, cudaStream_t stream);

} // namespace winnow::cuda
