#pragma once
// The subcommands. Each returns the process exit code: 0 ok, 1 a run failed (verification or an
// error), 2 a usage error (thrown as winnow::usage_error and mapped in main).
#include <optional>
#include <string>
#include <vector>

#include "winnow/harness.hpp"

namespace winnow::cli {

struct run_args {
  std::string algo, spec;
  std::vector<std::string> params;
  run_options options;
  std::string out;
  bool out_given = false; ///< --out was on the command line (an empty name is an error, not "no file")
};

struct bench_args {
  std::string suite = "default";
  bool suite_given = false;                    ///< --suite was on the command line (results are named after it)
  std::vector<std::string> apis, algos, cases; ///< algos and cases: names or globs
  std::vector<std::string> params;             ///< sweeps: [ALGORITHM:]KEY=V1,V2,…
  std::string name;                            ///< results file name (default: the suite's)
  bool list = false;                           ///< print the plan, run nothing
  std::optional<double> max_noise;             ///< [fraction]
  double timeout_s = 15;
  std::optional<int> reps, warmup;
  std::optional<double> warmup_ms;
  std::optional<double> min_time_ms; ///< time at least this much in timed runs (default: the suite's)
  std::optional<double> busy_ms;     ///< with a clock, keep the device busy this long a record (default: the suite's)
  bool cold = false;
  bool loop_check = false;
  check_place check = check_place::device; ///< --check: where results are verified
  bool resume = false;                     ///< skip what an earlier run into --out already measured
  bool quick = false;                      ///< the suite's quick section
  std::optional<int> seeds; ///< every case with a seed, this many times with seeds s, s + 1, … (default: the suite's)
  std::string out = "results";
  std::string shard; ///< "I/N": only the records of shard I of N (shard.hpp); empty: all
  bool json = false; ///< --list as one JSON object (records, estimated seconds)
};

struct reproduce_args {
  std::string paper; ///< one of reproduce_papers(), or all
  std::string out;
  bool quick = false;                      ///< every suite's quick section: end to end on software drivers in minutes
  bool fresh = false;                      ///< measure everything again instead of resuming what is in --out
  bool debug = false;                      ///< pass --debug to the children
  check_place check = check_place::device; ///< --check, passed to the bench children
  std::string shard;   ///< "I/N": shard I of N of every bench step (shard.hpp); no report (merge, then reproduce)
  std::string devices; ///< "all" or "0,2,…": one child reproduction per device, each a shard, then merge and report
  bool list = false;   ///< print the steps with their records and estimated seconds, run nothing
};

struct trace_args {
  std::string algo, spec, out;
  std::vector<std::string> params;
};

/// gl/ or vk/ horn, jj, rlz, bt: the algorithms `trace` and `view` can show pass by pass.
[[nodiscard]] bool shader_era_algorithm(const algorithm_info& info);
/// "key=value" strings to params; a key given twice is a usage error.
[[nodiscard]] params parse_params(const std::vector<std::string>& given);

/// The human-readable list, or (as_json) the same as one JSON object: backends with availability,
/// device and algorithms with their parameters; the embedded suites. `apis` (when not empty): only
/// those backends, without the suites and corpus families.
int list_command(bool as_json, const std::vector<std::string>& apis);
int run_command(const run_args& a);
int bench_command(const bench_args& a);
int corpus_command(const std::string& spec, const std::string& out);
/// out: the JSON Lines file to write, or null.
int calibrate_command(const std::vector<std::string>& apis, const std::string* out);
int trace_command(const trace_args& a);
int reproduce_command(const reproduce_args& a);
/// `reproduce --devices`: the shards on the devices at once (devices.cpp), then merge and report.
int reproduce_on_devices(const reproduce_args& a);
/// The papers `winnow reproduce` knows, in its order, for the help text.
std::vector<std::string> reproduce_papers();
/// `winnow compare`: `before` and `after` are results folders or .jsonl files; `threshold` [fraction]
/// a change must pass besides the noise. 1 when no record matches.
int compare_command(const std::string& before, const std::string& after, double threshold);
/// `winnow merge --out DIR SHARD_DIR…`: the folders of `bench --shard` or `reproduce --shard` runs
/// joined into what one unsharded run writes. 1 when a shard is missing or was cut short (the
/// merged folder then says "complete": false); usage_error for shards that do not belong together.
int merge_command(const std::string& out, const std::vector<std::string>& shards);
/// `winnow view` (algo, spec and params as trace's; no --out).
int view_command(const trace_args& a, const std::string& script);

} // namespace winnow::cli
