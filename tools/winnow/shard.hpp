#pragma once
// `--shard I/N`: a deterministic part of a bench's plan, balanced by estimated cost, so that N
// processes (GPUs of one host, Slurm array tasks) each run one part into a folder of their own and
// `winnow merge` joins the parts into what one unsharded run writes.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "bench_plan.hpp"

namespace winnow::cli {

struct shard_spec {
  std::size_t index = 0; ///< I, from 0 (as GoogleTest counts shards)
  std::size_t count = 1; ///< N
};

/// "I/N" with 0 ≤ I < N; usage_error naming the value otherwise.
[[nodiscard]] shard_spec parse_shard(const std::string& text);

/// What a record is expected to cost, from what the plan knows before anything runs. The model
/// (docs/cli.md, "Sharding"): a record costs a fixed set-up per api, an upload (and set-up) of n
/// elements, its warm-up (warmup runs, or at least warmup_ms), reps timed runs of n elements at the
/// api's rate times the algorithm's relative cost (at least min_time_ms of them), and a check of n
/// elements on the host; a case costs its making once per
/// process that runs one of its records. The rates are rough (a software driver is far slower than a GPU); what the
/// partition needs is their ratio inside one bench, which the model gets right enough: cost grows with n and with reps.
struct cost_inputs {
  std::string api;
  std::uint64_t n = 0;
  int reps = 1, warmup = 0;
  double warmup_ms = 0;
  double min_time_ms = 0; ///< the timed runs go on until they add up to this
  double busy_ms = 0;     ///< watched: the record's runs, untimed and timed, last at least this long
  /// The estimate for this machine, not the partition: the device's clock is watched (warm-up rule
  /// nvml: the warm-up is the record's runs alone, not warmup_ms), and a GPU result is checked on the
  /// device (no host check per element).
  bool watched = false, checked_on_device = false;
  double relative_cost = 1; ///< the algorithm's (algorithm_info::relative_cost): its runs against the api's rate
};
[[nodiscard]] double record_seconds(const cost_inputs& c);
/// Making a case of n elements (generation and reference) [s]; `ahead`: made while a GPU measures,
/// only the wait for it counted.
[[nodiscard]] double make_seconds(std::uint64_t n, bool ahead = false);

struct planned_record {
  std::size_t case_index = 0;
  std::uint64_t n = 0;     ///< its case's elements as the model counts them (gains included; a file: its header's)
  double seconds = 0;      ///< record_seconds
  double make_seconds = 0; ///< of its case
};

/// The shard of each planned record: longest first (ties: plan order), each to the shard whose
/// estimated time grows least with it (its case's making counted where the shard lacks the case;
/// ties: the lowest shard). Deterministic: every shard of one plan computes the same partition.
[[nodiscard]] std::vector<std::size_t> assign_shards(const std::vector<planned_record>& records, std::size_t count);

/// The plan's records in its order (case by case, each case's jobs in plan order), with their costs.
/// The partition takes them as they are, the same in every shard; `here`, given, says which apis'
/// devices this machine watches and checks on, for the estimate --list prints.
struct device_terms {
  std::function<bool(const std::string& api)> watched, checks_on_device;
};
[[nodiscard]] std::vector<planned_record> plan_costs(const bench_plan& plan, const run_options& options,
                                                     const device_terms& here = {});

/// The plan's records as `winnow merge` matches them: [algorithm, parameters (as the CSV writes
/// them), case], in plan order. Every shard of one plan writes the same list into its status file.
[[nodiscard]] std::string plan_json(const bench_plan& plan);
/// The same triple of a record.
[[nodiscard]] std::string plan_entry_json(const std::string& algorithm, const params& p, const std::string& spec);

} // namespace winnow::cli
