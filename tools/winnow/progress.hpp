#pragma once
// The line a bench prints before each record: "[12/40 0:41, ~1:35 left]", how far it is and how long
// the rest will take. A suite runs its cases from small to large and its algorithms differ by orders
// of magnitude at one size, so counting records misleads: the Redzone suite on an H200 said "~1:06
// left" at 5870 of 6580 records, with more than 17 minutes still to run. The rest is estimated record
// by record instead: the plan's cost model (shard.hpp: record_seconds, make_seconds) for its size,
// times what the same job (algorithm and parameters) took against that model at the largest size it
// ran so far.
#include <cstddef>
#include <string>
#include <vector>

namespace winnow::cli {

/// A record a bench will run, in the order it runs them.
struct progress_item {
  std::size_t job = 0; ///< which algorithm and parameters (the plan's job index)
  double n = 0;        ///< its case's elements, as the cost model counts them
  double model = 0;    ///< the cost model's seconds (with the case's making on its case's first record)
};

class progress {
public:
  /// `total` records planned, of which `items` run here (the others an earlier run left).
  progress(std::size_t total, std::vector<progress_item> items);
  /// `n` records an earlier run left: counted, nothing to wait for.
  void skip(std::size_t n) { m_done += n; }
  /// The line for the item about to run, `elapsed_s` seconds into this run.
  [[nodiscard]] std::string line(double elapsed_s);
  /// The item that ran last has finished, `elapsed_s` seconds into this run: its time is the time
  /// since the item before it finished (so the wait for its case's making is its own, as the model
  /// counts it). `learn`: false for a record that did not run (skipped), whose time says nothing.
  void finished(double elapsed_s, bool learn);
  /// The estimated seconds of the items from `from` on, by what was learned so far.
  [[nodiscard]] double seconds_from(std::size_t from) const;

private:
  struct seen {
    double n = -1;    ///< the largest size the job ran so far
    double ratio = 1; ///< what it took there against the model
  };
  std::size_t m_total;
  std::vector<progress_item> m_items;
  std::vector<seen> m_seen; ///< by job
  std::size_t m_done = 0;   ///< records skipped, or whose line was printed
  std::size_t m_next = 0;   ///< the next item to finish
  double m_last_end = 0;    ///< when the item before it finished [s]
  double m_took = 0;        ///< the items learned from: their seconds together …
  double m_modelled = 0;    ///< … and their model's
};

} // namespace winnow::cli
