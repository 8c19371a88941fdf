#pragma once
/// A removal list as one byte an element: what the reference, the check of an out-of-place
/// algorithm's input and Redzone's pair counts look up.
#include <cstdint>
#include <memory>
#include <vector>

#include "winnow/device_copies.hpp"
#include "winnow/workload.hpp"

namespace winnow {

/// One byte per element of w.data: 1 where w.removals lists it, else 0; an index past w.data marks
/// nothing. Bytes, not std::vector<bool>: marked by all cores at once (a 256M-element list took
/// seconds on one).
[[nodiscard]] std::vector<std::uint8_t> removed_mask(const workload& w);

/// removed_mask(w) made once for a case and kept among its `copies` (prepared_case::copies), where
/// each of its records finds it; made anew where `copies` is nullptr. Each user made its own on every
/// record before: zeroing n bytes and k scattered writes, up to four times a case of the cpu paper.
[[nodiscard]] std::shared_ptr<const std::vector<std::uint8_t>> removed_mask(const workload& w, device_copies* copies);

} // namespace winnow
