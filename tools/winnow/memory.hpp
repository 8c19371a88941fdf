#pragma once
#include <cstdint>

#include "winnow/corpus.hpp"

namespace winnow::cli {

/// Bytes the kernel says it can give us now (MemAvailable).
[[nodiscard]] std::uint64_t available_memory();
/// Host bytes one case needs while an algorithm runs on it: the corpus's own footprint plus the
/// algorithm's working copies (input, output, removal list).
[[nodiscard]] std::uint64_t run_footprint(const case_spec& spec);
/// Throws usage_error "… needs X GiB, Y GiB available" when the case does not fit.
void check_fits(const case_spec& spec);

} // namespace winnow::cli
