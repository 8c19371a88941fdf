#pragma once
// The cases of a bench, made a batch ahead on all cores. The corpus's generators are sequential by
// design (the same bytes on every machine from one MT19937), so a 512M-element removal case took
// about 20 s on one core of the GPU machine: most of a Redzone record's time, with 15 cores idle.
// The cases of one batch are made side by side, before any of them is timed: none is ever made while
// an algorithm runs, so the timings see the machine as one case at a time would.
#include <cstddef>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "winnow/corpus.hpp"
#include "winnow/harness.hpp"

namespace winnow::cli {

/// One case as bench uses it: made, or why it could not be (a usage_error's message: too large for
/// this machine's memory, a file: case that does not decode).
struct made_case {
  std::optional<prepared_case> c;
  std::string why_not;
};

class case_maker {
public:
  explicit case_maker(std::vector<case_spec> specs);
  /// The i-th case, each taken once, in order: made on first ask together with the cases after it
  /// that fit in memory beside it (at most one a core). The first case of a batch must fit in the
  /// memory available, as a case made alone must; the others fill three quarters of it. What making
  /// a case threw other than a usage_error is thrown here when its turn comes, after one more try
  /// alone if it failed beside others (std::bad_alloc, say).
  [[nodiscard]] made_case take(std::size_t i);

private:
  void make_batch(std::size_t first);
  void make(std::size_t first, std::size_t end);

  std::vector<case_spec> m_specs;
  std::vector<made_case> m_made;
  std::vector<std::exception_ptr> m_failed;
  std::vector<bool> m_taken;
  std::size_t m_end = 0; // cases [0, m_end) are made (or taken)
};

} // namespace winnow::cli
