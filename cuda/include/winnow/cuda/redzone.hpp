#pragma once
/// Redzone on the GPU with its bookkeeping exposed, so tests can check the paper's invariants
/// (Bontes & Gain 2024, Lemma 4.1 and 4.2) beyond the conformance suite's result check.
///
/// Example: A = 1 2 3 4 5 6, R = {4, 1} → k = 2, red zone z = 4.
///   mark:    R[0] = 4 ≥ z, so A[4] gets payload 0 (zone_marks = 1).
///   fill:    A[4] (deleted) ↔ R[0] = 4 (in the zone): case B, nothing;
///            A[5] = 6 (kept) ↔ R[1] = 1 (a hole): case A, A[1] = 6.
///   orphans: none. A[0..4) = 1 6 3 4.
#include <cstdint>
#include <vector>

#include "winnow/algorithm.hpp"
#include "winnow/workload.hpp"

namespace winnow::cuda {

struct redzone_report {
  std::vector<std::uint32_t> a;                   ///< the whole of A after the run
  std::uint64_t zone_marks = 0;                   ///< red-zone items marked in phase 1 (|R_d|)
  std::vector<std::uint32_t> source_orphans;      ///< per batch: case D items found in phase 2 (|Z'_p|)
  std::vector<std::uint32_t> destination_orphans; ///< per batch: case C items found in phase 2 (|R'_p|)
  std::uint64_t batch_size = 0;                   ///< s of Algorithm 2 (k for redzone1)
};

/// Runs `cuda/redzone1` or `cuda/redzone2` (name without the api) once on `w` with `p` and reads
/// back A and the phase counters. Throws winnow::unavailable without a device, winnow::error when
/// the orphan totals disagree (R has duplicates or an index ≥ n).
[[nodiscard]] redzone_report run_redzone(const std::string& name, const workload& w, const params& p);

} // namespace winnow::cuda
