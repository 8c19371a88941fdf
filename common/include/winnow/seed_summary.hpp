#pragma once
/// The Redzone paper's statistics over seeds (Bontes & Gain time every point 20 times with 20
/// different seeds and plot the logarithmic mean of each phase and the maximum total): the records of
/// one algorithm, parameter set, device and case that differ only in the case's seed, summarized.
/// `winnow bench --seeds N` writes them beside the records (NAME.seeds.jsonl and NAME.seeds.csv).
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "winnow/record.hpp"

namespace winnow {

struct seed_summary {
  std::string api, algorithm, device;
  params parameters;
  std::string spec;                 ///< the case without its seed (canonical, seed key removed)
  std::vector<std::uint64_t> seeds; ///< the seeds of the verified records summarized, ascending
  std::size_t failed = 0;           ///< records of the group that ran and were wrong (left out)
  std::size_t skipped = 0;          ///< records of the group that did not run (left out)
  /// Per phase, in order of first appearance: exp(mean(ln median)) over the seeds [ns]. The medians
  /// are each record's (its timed repetitions); a phase missing from a record is left out of its mean.
  std::vector<std::pair<std::string, double>> phase_log_mean_ns;
  double total_log_mean_ns = 0;              ///< the same over the totals
  double total_min_ns = 0, total_max_ns = 0; ///< the smallest and largest total median over the seeds
};

/// Groups `rows` by api, algorithm, parameters, device and case-without-seed, in order of first
/// appearance; records of cases without a seed key (images, edge cases) are not summarized.
[[nodiscard]] std::vector<seed_summary> summarize_seeds(const std::vector<record>& rows);

[[nodiscard]] std::string to_json_line(const seed_summary& s);
/// Header and rows; phase columns are the union of all phases, in order of first appearance.
[[nodiscard]] std::string to_csv(const std::vector<seed_summary>& rows);

} // namespace winnow
