#pragma once
#include <cstdint>
#include <vector>

#include "winnow/workload.hpp"

namespace winnow::detail {

/// One byte per element of w.data: 1 where w.removals lists it, else 0; an index past w.data marks
/// nothing. Bytes, not std::vector<bool>: marked by all cores at once (a 256M-element list took
/// seconds on one).
[[nodiscard]] std::vector<std::uint8_t> removed_mask(const workload& w);

} // namespace winnow::detail
