#pragma once
// What a case spec generates, counted, for the CLI tests that check records against their cases (a
// file of its own: the corpus's namespace `winnow` would clash with the tests' `winnow(…)` helper).
#include <cstdint>
#include <string>

namespace winnow_test {

struct case_counts {
  std::uint64_t n = 0, removals = 0, kept = 0;
};

[[nodiscard]] case_counts counts_of(const std::string& spec);

} // namespace winnow_test
