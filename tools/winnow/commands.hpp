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
};

struct bench_args {
  std::string suite = "default";
  std::vector<std::string> apis, algos, cases;
  std::optional<int> reps, warmup;
  std::optional<double> warmup_ms;
  bool cold = false;
  bool loop_check = false;
  std::string out = "results";
};

struct trace_args {
  std::string algo, spec, out;
  std::vector<std::string> params;
};

/// gl/ or vk/ horn, jj, rlz, bt: the algorithms `trace` and `view` can show pass by pass.
[[nodiscard]] bool shader_era_algorithm(const algorithm_info& info);
/// "key=value" strings to params; a key given twice is a usage error.
[[nodiscard]] params parse_params(const std::vector<std::string>& given);

int list_command();
int run_command(const run_args& a);
int bench_command(const bench_args& a);
int corpus_command(const std::string& spec, const std::string& out);
int calibrate_command(const std::vector<std::string>& apis, const std::string& out);
int trace_command(const trace_args& a);
/// `winnow view` (algo, spec and params as trace's; no --out).
int view_command(const trace_args& a, const std::string& script);

} // namespace winnow::cli
