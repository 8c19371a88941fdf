#include "case_counts.hpp"

#include "winnow/corpus.hpp"

namespace winnow_test {

case_counts counts_of(const std::string& spec) {
  const winnow::workload w = winnow::generate(spec);
  return {w.size(), w.removals.size(), w.kept()};
}

} // namespace winnow_test
