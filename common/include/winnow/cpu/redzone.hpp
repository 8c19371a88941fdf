#pragma once
/// Redzone stream compaction on the CPU (Bontes & Gain 2024, Algorithm 2 with Algorithm 3's load
/// balancing), exposed apart from the registry so tests can check its invariants.
///
/// Example: A = 1 2 3 4 5 6, R = {4, 1} → k = 2, red zone z = 4 (A[4], A[5]).
///   mark:    R holds 4 ≥ z, so A[4] is marked deleted (payload 0).
///   fill:    pair A[4] (deleted) with R[0] = 4 (in the zone): nothing to do;
///            pair A[5] = 6 (kept) with R[1] = 1 (a hole): A[1] = 6.
///   orphans: none. Result A[0..4) = 1 6 3 4 — the kept items, unordered.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "winnow/timer.hpp"

namespace winnow::cpu {

/// What one run did, for the paper's invariants (Lemma 4.1, 4.2).
struct redzone_report {
  std::size_t zone_removals = 0;                ///< |{r ∈ R : r ≥ z}| = items marked in phase 1
  std::vector<std::size_t> source_orphans;      ///< per batch: |Z'_p|
  std::vector<std::size_t> destination_orphans; ///< per batch: |R'_p|
};

/// Removes the indices in `r` from `a` in place: afterwards a[0, n-k) holds exactly the kept items
/// (unordered). `r` must hold k unique indices below n; it is overwritten (it holds R' after the
/// call). Payload 0 marks deleted red-zone items, so kept items must be non-zero. `batches` ≥ 1 is
/// |P| of Algorithm 2. Runs on the calling thread's oneTBB arena. Phases `mark`, `fill`, `orphans`
/// are marked on `t` when given.
redzone_report redzone_compact(std::span<std::uint32_t> a, std::span<std::uint32_t> r, std::size_t batches,
                               timer* t = nullptr);

} // namespace winnow::cpu
