#pragma once
/// The reference compaction every algorithm is checked against.
#include <cstdint>
#include <vector>

#include "winnow/workload.hpp"

namespace winnow {

/// The kept elements in input order (sequential copy_if over the marked stream).
/// Example: data 5 0 7 0 9, no removal list → 5 7 9.
[[nodiscard]] std::vector<std::uint32_t> reference_compact(const workload& w);

} // namespace winnow
