#pragma once
#include <cstdint>

#include "winnow/corpus.hpp"

namespace winnow::cli {

/// Bytes this process can have now: what the kernel says it can give (MemAvailable, or the cgroup's
/// room), and the large arrays the process keeps for reuse (host_memory.hpp).
[[nodiscard]] std::uint64_t available_memory();
/// Host bytes an algorithm's working copies of a case need (input, output, removal list): 12 an element.
[[nodiscard]] std::uint64_t working_bytes(const case_spec& spec);
/// Host bytes one case needs while an algorithm runs on it: the corpus's own footprint plus the
/// algorithm's working copies.
[[nodiscard]] std::uint64_t run_footprint(const case_spec& spec);
/// Throws usage_error "… needs X GiB, Y GiB available" when the case does not fit.
void check_fits(const case_spec& spec);

} // namespace winnow::cli
