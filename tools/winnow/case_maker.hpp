#pragma once
// The cases of a bench, made a batch ahead on all cores. The corpus's generators are sequential by
// design (the same bytes on every machine from one MT19937), so a 512M-element removal case took
// about 20 s on one core of the GPU machine: most of a Redzone record's time, with 15 cores idle.
// The cases of one batch are made side by side. With `ahead`, the next batch is made in the
// background while the records of this one run (on all cores but two, which stay with the bench
// and the driver): the GPU's timers measure only the device, and a Redzone campaign waited 590 s
// for cases made between its records. Without it (a bench that times on the host: the cpu
// algorithms), no case is made while an algorithm runs, so the timings see the machine as one case
// at a time would.
#include <cstddef>
#include <exception>
#include <future>
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
  explicit case_maker(std::vector<case_spec> specs, bool ahead = false);
  case_maker(const case_maker&) = delete;
  case_maker& operator=(const case_maker&) = delete;
  ~case_maker();
  /// The i-th case, each taken once, in order: made on first ask together with the cases after it
  /// that fit in memory beside it (at most one a core), or waited for if the batch being made
  /// ahead holds it. The first case of a batch must fit in the memory available, as a case made
  /// alone must; the others fill three quarters of it. A batch is made ahead only while it fits
  /// beside the cases held now; else it is made when its first case is asked for. What making a case
  /// threw other than a usage_error is thrown here when its turn comes, after one more try alone if
  /// it failed beside others (std::bad_alloc, say).
  [[nodiscard]] made_case take(std::size_t i);
  /// How many cases were made in the background so far.
  [[nodiscard]] std::size_t made_ahead() const { return m_made_ahead; }

private:
  /// The cases from `first` that go in one batch: [first, end). With `beside` > 0 (bytes the runs of
  /// the batch held now may still take: their working copies), only those that fit beside them, and
  /// `first` too must: else end = first.
  [[nodiscard]] std::size_t batch_end(std::size_t first, std::size_t cores, std::uint64_t beside) const;
  void make_batch(std::size_t first);
  void start_ahead();
  void make(std::size_t first, std::size_t end);

  std::vector<case_spec> m_specs;
  std::vector<made_case> m_made;
  std::vector<std::exception_ptr> m_failed;
  std::vector<bool> m_taken;
  std::size_t m_end = 0;       ///< cases [0, m_end) are made (or taken)
  std::uint64_t m_working = 0; ///< the working copies of the largest run of the batch held now
  bool m_ahead;                ///< make the next batch while this one runs
  std::future<void> m_next;    ///< the batch being made ahead: [m_end, m_next_end)
  std::size_t m_next_end = 0;
  std::uint64_t m_next_working = 0;
  std::size_t m_made_ahead = 0;
};

} // namespace winnow::cli
