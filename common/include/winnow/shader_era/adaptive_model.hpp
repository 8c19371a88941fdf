#pragma once
/// The adaptive algorithm's model fitted from records (`model=PATH`, adaptive.hpp): the time of each
/// candidate — an algorithm of the frame with its parameters — as a function of a stream's features
/// (sampling.hpp), learnt from a bench of those algorithms on this API and this GPU (the moreira
/// suite's records: `winnow bench --suite moreira --api gl --case '*:4M*'`).
///   - the training size is the records' n nearest the stream's (by ratio);
///   - the candidates are the parameter sets fastest on at least one case of that size (at most
///     max_candidates, those fastest most often first), each with a record on every such case;
///   - each candidate's nanoseconds per element are fitted as features · beta over those cases by
///     least squares of the relative error, the features computed by the CPU from the cases
///     themselves (generated again from their specs), exactly as the sample pass would.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "winnow/algorithm.hpp"
#include "winnow/shader_era/plan.hpp"
#include "winnow/shader_era/sampling.hpp"

namespace winnow::shader_era {

inline constexpr std::size_t max_candidates = 6;

struct adaptive_candidate {
  algorithm_kind algorithm = algorithm_kind::bt;
  params given;         ///< as its records print them
  features beta{};      ///< ns per element = features · beta (records); unused by the pass model
  std::size_t wins = 0; ///< training cases it was fastest on
  /// Its worst loss over the training cases [ns at the model's trained_n]: its time minus the fastest
  /// record's (any parameter set's) on the case where that difference is largest. What running it
  /// without a sample can cost at most, as far as the records know (choice=none, adaptive.hpp).
  double worst_regret_ns = 0;
  /// Its mean loss over the training cases [ns at trained_n], each case's difference as above: what
  /// running it without a sample is expected to cost, as far as the records know (choice=auto weighs
  /// it against what choosing costs for sure, adaptive.hpp).
  double mean_regret_ns = 0;
  /// Each phase's time [ns per element], the mean over the training cases (from the records' phases;
  /// a phase missing from a record counts 0 there). A mean time, not a share of the total: a phase
  /// such as Binary-Tree's reduction takes the same time at any density. choice=speculate prices the
  /// guess's first pass from it (adaptive.cpp).
  std::map<std::string, double> phase_ns;
};

struct adaptive_model {
  std::string source;             ///< the path the records came from
  std::uint64_t trained_n = 0;    ///< the records' n the model was fitted at
  std::vector<std::string> cases; ///< the training cases
  std::vector<adaptive_candidate> candidates;
};

/// Loads every record of `api`'s horn, jj, rlz and bt from `path` (a .jsonl file, or a folder whose
/// .jsonl files are searched; journals and seed summaries are left out) and fits the model for a
/// stream of `n` elements. Fitted once per (path, api, n) in a process. Throws usage_error naming the
/// path when it is no file or folder or cannot be read, unavailable when it holds no usable records
/// of `api` (the record is skipped with the reason).
[[nodiscard]] const adaptive_model& fitted_model(const std::string& path, const std::string& api, std::uint64_t n);

/// What a record says, for fit(): a candidate's parameters, its case and total median.
struct training_record {
  std::string algorithm; ///< "bt"
  params given;
  std::string case_spec;
  std::uint64_t n = 0;
  double ns = 0;
  std::map<std::string, double> phases; ///< each phase's median [ns], where the record has them
};

/// The fit itself, on records already read and cases' features already computed (`features_of_case`
/// gives them for a spec, or nullopt to leave the case out). For tests.
[[nodiscard]] adaptive_model fit(const std::vector<training_record>& records, std::uint64_t n,
                                 const std::function<std::optional<features>(const std::string&)>& features_of_case);

/// features · beta.
[[nodiscard]] double predict_ns_per_element(const adaptive_candidate& c, const features& f);

/// The kind named by "horn", "jj", "rlz", "bt" (nullopt for others).
[[nodiscard]] std::optional<algorithm_kind> kind_named(std::string_view name);

} // namespace winnow::shader_era
