#pragma once
/// The reference compaction every algorithm is checked against.
#include <cstdint>
#include <span>
#include <vector>

#include "winnow/workload.hpp"

namespace winnow {

/// The kept elements in input order (sequential copy_if over the marked stream).
/// Example: data 5 0 7 0 9, no removal list → 5 7 9.
[[nodiscard]] std::vector<std::uint32_t> reference_compact(const workload& w);
/// The same, where the caller has w's removal mask (removed_mask.hpp) made already; a predicate
/// case does not read it.
[[nodiscard]] std::vector<std::uint32_t> reference_compact(const workload& w, std::span<const std::uint8_t> removed);

} // namespace winnow
