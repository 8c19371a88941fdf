#pragma once
// What the CPU algorithms share: a working copy of the input restored before every repetition,
// the `mark` phase that predicate algorithms run on removal-list cases, the `threads` axis, and
// result() handing the buffers over.
#include <oneapi/tbb/task_arena.h>

#include <cstdint>
#include <vector>

#include "winnow/algorithm.hpp"

namespace winnow::cpu {

/// `threads`: oneTBB arena size; the default is every hardware thread.
[[nodiscard]] param_axis threads_axis();

class cpu_algorithm : public algorithm {
public:
  /// Keeps the working copy's storage for the next record's (host_memory.hpp's recycle()).
  ~cpu_algorithm() override;
  void prepare(const workload& w, const param_set& p, const prepare_options& o) override;
  /// Restores the working copy (untimed): on every core, whatever the algorithm's `threads`, when the
  /// input is beyond the last-level cache; on this thread otherwise, so a small one stays in its cache.
  void reset() override;
  /// Writes through a buffer twice the size of the last-level cache, evicting the working set.
  void flush_caches() override;

protected:
  /// On removal-list cases, writes payload 0 at every index of R (the paper's phase 1 for its
  /// competitors). Nothing to do on predicate cases.
  void mark(timer& t, bool parallel);
  /// Bytes the mark phase moves (read R, scattered writes), 0 on predicate cases.
  [[nodiscard]] traffic mark_traffic() const;
  /// result(): the first `kept` words of `values` (and, out of place, the input after the run), handed
  /// over rather than copied. A 2 GiB case's copies of output and input took 1.8 s a record on the
  /// H200's host, more than its one run. After it the algorithm is spent: a second result() and
  /// reset() refuse until prepare() again.
  [[nodiscard]] compaction_output hand_over(std::vector<std::uint32_t>& values, std::size_t kept, bool out_of_place);
  template <class F> void in_arena(F&& f) { m_arena.execute(std::forward<F>(f)); }

  const workload* m_w = nullptr;
  std::vector<std::uint32_t> m_a; ///< the algorithm's input, in place or not

private:
  oneapi::tbb::task_arena m_arena;
  bool m_handed_over = false;
};

} // namespace winnow::cpu
