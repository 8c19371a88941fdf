#pragma once
/// Checks a compaction against the reference: stable algorithms element by element, unstable ones
/// as a multiset; the count apart from the contents; an out-of-place algorithm's input unchanged.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "winnow/workload.hpp"

namespace winnow {

/// What an algorithm hands back after a run (lifecycle step 4).
struct compaction_output {
  std::vector<std::uint32_t> values;                     ///< the compacted stream, count = size()
  std::optional<std::vector<std::uint32_t>> input_after; ///< out-of-place algorithms: their input after the run
};

struct verdict {
  bool ok = true;
  std::string message; ///< empty when ok; else names the first bad index, expected, actual, and the count
  std::size_t mismatches = 0;
};

/// `stable`: compare exactly; otherwise as a multiset (on what moved alone where most of the output
/// holds its input's survivors in place, as an in-place algorithm leaves it; the survivors known from
/// `removed`, or on a predicate case from the payloads). `input_after`, when given, may differ from
/// `w.data` only by payload 0 written at removed indices (a `mark` phase); those are looked up in
/// `removed`, w's removal mask (removed_mask.hpp) where the caller has it made, else made here.
[[nodiscard]] verdict verify(const workload& w, const std::vector<std::uint32_t>& expected,
                             const compaction_output& out, bool stable, std::span<const std::uint8_t> removed = {});

} // namespace winnow
