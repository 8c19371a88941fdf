#include "shard.hpp"

#include <algorithm>
#include <charconv>
#include <numeric>
#include <nlohmann/json.hpp>
#include <set>

#include "winnow/corpus.hpp"
#include "winnow/error.hpp"
#include "winnow/harness.hpp"
#include "winnow/record.hpp"

namespace winnow::cli {
namespace {

/// Per api: the fixed set-up of a record [s], its upload and set-up per element [ns] and a typical
/// compaction's run [ns an element]. Medians of the whole H200 runs committed under docs/results
/// (their records' host_ms and totals, 2026-12-04; the CPU's on the GPU machine's 16 cores): a
/// graphics api sets up textures or buffers and pipelines per element of its case, and runs a
/// shader-era algorithm's dozens of passes.
struct api_rates {
  double setup_s, upload_ns, run_ns;
};

api_rates rates(const std::string& api) {
  if (api == "cpu") return {0.001, 4.0, 0.8};
  if (api == "cuda") return {0.002, 0.05, 0.01};
  if (api == "vk") return {0.008, 2.0, 0.05};
  if (api == "vkfrag") return {0.013, 6.0, 0.8};
  return {0.005, 15.0, 0.8}; // gl
}

constexpr double check_ns = 3.0; ///< verifying an element on the host
/// Making a case, per element (its stream, removal list and reference): in batches on every core with
/// nothing else running (the CPU's benches: the cpu paper's H200 records), or, where the bench makes
/// the next batch while a GPU measures, only what the records still wait for (the Redzone suites').
constexpr double make_ns = 4.0, make_ahead_ns = 0.6;

} // namespace

shard_spec parse_shard(const std::string& text) {
  const std::string usage = "--shard '" + text + "' is not I/N with 0 <= I < N (e.g. --shard 0/4)";
  const auto slash = text.find('/');
  if (slash == std::string::npos) throw usage_error(usage);
  const auto number = [&](std::string_view part) {
    std::size_t x = 0;
    const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), x);
    if (part.empty() || ec != std::errc() || end != part.data() + part.size()) throw usage_error(usage);
    return x;
  };
  const std::string_view all(text);
  shard_spec s{number(all.substr(0, slash)), number(all.substr(slash + 1))};
  if (s.count == 0 || s.index >= s.count || s.count > 100000) throw usage_error(usage);
  return s;
}

double record_seconds(const cost_inputs& c) {
  const api_rates r = rates(c.api);
  const double n = static_cast<double>(c.n);
  const double run_s = n * r.run_ns * c.relative_cost * 1e-9;
  const double timed_s = std::max(c.reps * run_s, c.min_time_ms / 1000);
  // Watched: the warmup runs (one where a run is long: enough_warmup_run_ns), and the runs in all
  // last at least busy_ms.
  const double warm_runs = run_s * 1e9 >= enough_warmup_run_ns ? std::min(c.warmup, 1) : c.warmup;
  const double runs_s = c.watched ? std::max(warm_runs * run_s + timed_s, c.busy_ms / 1000)
                                  : std::max(c.warmup_ms / 1000, c.warmup * run_s) + timed_s;
  const double check_s = c.checked_on_device ? 0 : n * check_ns * 1e-9;
  return r.setup_s + n * r.upload_ns * 1e-9 + check_s + runs_s;
}

double make_seconds(std::uint64_t n, bool ahead) {
  return static_cast<double>(n) * (ahead ? make_ahead_ns : make_ns) * 1e-9;
}

std::vector<std::size_t> assign_shards(const std::vector<planned_record>& records, std::size_t count) {
  std::vector<std::size_t> order(records.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return records[a].seconds > records[b].seconds; });
  std::vector<double> load(count, 0.0);
  std::vector<std::set<std::size_t>> cases(count);
  std::vector<std::size_t> out(records.size(), 0);
  for (const std::size_t i : order) {
    const planned_record& r = records[i];
    std::size_t best = 0;
    double best_load = 0;
    for (std::size_t s = 0; s < count; ++s) {
      const double after = load[s] + r.seconds + (cases[s].contains(r.case_index) ? 0.0 : r.make_seconds);
      if (s == 0 || after < best_load) {
        best = s;
        best_load = after;
      }
    }
    out[i] = best;
    load[best] = best_load;
    cases[best].insert(r.case_index);
  }
  return out;
}

std::vector<planned_record> plan_costs(const bench_plan& plan, const run_options& options, const device_terms& here) {
  // bench makes cases ahead where every record times a watched device (bench.cpp, case_maker).
  const bool ahead = here.watched && std::all_of(plan.jobs.begin(), plan.jobs.end(),
                                                 [&](const bench_job& j) { return here.watched(j.entry->info.api); });
  std::vector<planned_record> out;
  for (std::size_t i = 0; i < plan.cases.size(); ++i) {
    const case_spec spec = parse_spec(plan.cases[i]);
    // A file: case's size is in its header, which may be missing yet (bench says so later): a guess.
    std::uint64_t n = spec.n + gains_of(spec);
    if (spec.family == "file") {
      try {
        n = elements_of(spec);
      } catch (const std::exception&) { n = 1 << 20; }
    }
    for (const auto& j : plan.jobs) {
      const std::string& api = j.entry->info.api;
      out.push_back(
          {i, n,
           record_seconds({api, n, options.reps, options.warmup, options.warmup_ns / 1e6, options.min_time_ns / 1e6,
                           options.busy_ns / 1e6, here.watched && here.watched(api),
                           here.checks_on_device && here.checks_on_device(api), j.entry->info.relative_cost}),
           make_seconds(n, ahead)});
    }
  }
  return out;
}

std::string plan_entry_json(const std::string& algorithm, const params& p, const std::string& spec) {
  return nlohmann::json::array({algorithm, csv_params(p), spec}).dump();
}

std::string plan_json(const bench_plan& plan) {
  std::string out = "[";
  for (const auto& c : plan.cases)
    for (const auto& j : plan.jobs)
      out += (out.size() > 1 ? "," : "") + plan_entry_json(j.entry->info.full_name(), j.p, to_string(parse_spec(c)));
  return out + "]";
}

} // namespace winnow::cli
