#pragma once
// What a `winnow bench` will run, worked out before anything runs: the suite narrowed by the
// command line's filters (--api, --algo and --case globs), its parameter grid widened by --param
// sweeps, and the results' name. `--list` prints it; the bench runs it.
#include <map>
#include <string>
#include <vector>

#include "commands.hpp"
#include "suite.hpp"
#include "winnow/registry.hpp"

namespace winnow::cli {

struct bench_job {
  const algorithm_entry* entry;
  params p; ///< resolved: every axis, defaults filled in
};

struct bench_plan {
  std::string name;                           ///< the results' file name: --name, the suite's, or "custom"
  std::vector<bench_job> jobs;                ///< on the backends that can run here
  std::vector<std::string> cases;             ///< case specs as given, in order
  std::map<std::string, std::string> not_run; ///< api → why it cannot run here (its jobs are left out)
  /// The jobs of the apis in not_run: never run here, planned only so that --list can say what they
  /// would cost where their device is (a Slurm login node sizing a campaign for the GPU nodes).
  std::vector<bench_job> elsewhere;
};

/// `--param [PATTERN:]KEY=V1,V2,…`: the values to sweep for KEY in every selected algorithm whose
/// name PATTERN matches (every one that has KEY when no pattern). usage_error when malformed.
struct param_sweep {
  std::string pattern, key;
  std::vector<std::string> values;
};
[[nodiscard]] param_sweep parse_sweep(const std::string& text);

/// True when `pattern` has glob characters (* ? [): a filter rather than a name.
[[nodiscard]] bool is_glob(const std::string& pattern);
/// Shell-style match (fnmatch) of a whole name.
[[nodiscard]] bool glob_match(const std::string& pattern, const std::string& name);

/// --name, else "custom" for the user's own cases without --suite, else the suite's name.
[[nodiscard]] std::string results_name(const bench_args& a, const suite& s);

/// The plan, or a usage_error naming what selects nothing (with a did-you-mean where one is near).
/// Probes the backends the filters leave (probing a GPU backend may create a context).
[[nodiscard]] bench_plan make_plan(const bench_args& a, const suite& s, const registry& reg);

} // namespace winnow::cli
