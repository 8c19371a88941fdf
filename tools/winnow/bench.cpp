#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <utility>

#include "bench_plan.hpp"
#include "case_maker.hpp"
#include "child.hpp"
#include "commands.hpp"
#include "progress.hpp"
#include "results_folder.hpp"
#include "shard.hpp"
#include "table.hpp"
#include "winnow/backends.hpp"
#include "winnow/corpus.hpp"
#include "winnow/error.hpp"
#include "winnow/harness.hpp"
#include "winnow/seed_summary.hpp"
#include "winnow/settings.hpp"

namespace winnow::cli {
namespace {

/// The cost model's terms as this machine runs a bench: a device whose clock is watched warms up once,
/// not every record; a GPU result checked on the device costs no host check.
device_terms terms_here(const registry& reg, const run_options& options) {
  return {.watched =
              [&reg](const std::string& api) {
                const watched_device* d = watch(reg.device(api).identity);
                return d && d->clock;
              },
          .checks_on_device =
              [check = options.check](const std::string& api) { return api != "cpu" && check == check_place::device; }};
}

std::string noise_text(const record& r) {
  if (r.skipped || r.reps < 2) return "-";
  return format_percent(r.total.noise()) + (r.max_noise > 0 && r.total.noise() > r.max_noise ? " (over)" : "");
}

/// Which shard runs each record of the plan (all 0 without --shard): the partition a run makes.
std::vector<std::size_t> shards_of(const bench_plan& plan, const run_options& options,
                                   const std::optional<shard_spec>& shard) {
  return shard ? assign_shards(plan_costs(plan, options), shard->count)
               : std::vector<std::size_t>(plan.jobs.size() * plan.cases.size(), 0);
}

/// The records of `shard` (all without one) and their estimated seconds, a case's making counted once.
std::pair<std::size_t, double> totals(const std::vector<planned_record>& costs, const std::vector<std::size_t>& shards,
                                      const std::optional<shard_spec>& shard) {
  std::size_t records = 0;
  double seconds = 0;
  std::set<std::size_t> cases;
  for (std::size_t k = 0; k < costs.size(); ++k) {
    if (shard && shards[k] != shard->index) continue;
    ++records;
    seconds += costs[k].seconds + (cases.insert(costs[k].case_index).second ? costs[k].make_seconds : 0);
  }
  return {records, seconds};
}

/// What the records of the apis that cannot run here would cost where their device is, as on the
/// machines the model was fitted to: a GPU's clock watched, its results checked on it (as --check
/// says). With a shard, that shard's part of them (partitioned as a run there would).
std::pair<std::size_t, double> elsewhere_estimate(const registry& reg, const bench_plan& plan,
                                                  const run_options& options, const std::optional<shard_spec>& shard) {
  bench_plan there = plan;
  there.jobs = plan.elsewhere;
  device_terms gpu = terms_here(reg, options);
  gpu.watched = [](const std::string& api) { return api != "cpu"; };
  return totals(plan_costs(there, options, gpu), shards_of(there, options, shard), shard);
}

/// `--list`: what would run, one line per (algorithm, parameters, case), and what cannot run here;
/// with --shard only that shard's; with --json one object (records, estimated seconds, not run).
int print_plan(const registry& reg, const bench_plan& plan, const std::string& out, const run_options& options,
               const std::optional<shard_spec>& shard, bool as_json) {
  const auto shards = shards_of(plan, options, shard);
  const auto costs = plan_costs(plan, options, terms_here(reg, options));
  const auto [records, seconds] = totals(costs, shards, shard);
  table t({"algorithm", "params", "case", "estimate"});
  for (std::size_t i = 0; i < plan.cases.size(); ++i)
    for (std::size_t jx = 0; jx < plan.jobs.size(); ++jx) {
      const bench_job& j = plan.jobs[jx];
      const std::size_t k = i * plan.jobs.size() + jx;
      if (shard && shards[k] != shard->index) continue;
      t.add({j.entry->info.full_name(), to_string(j.p), plan.cases[i], format_ns(costs[k].seconds * 1e9)});
    }
  const auto [there, there_seconds] = elsewhere_estimate(reg, plan, options, shard);
  if (as_json) {
    nlohmann::ordered_json j{{"records", records},
                             {"seconds", seconds},
                             {"not_run", plan.not_run},
                             {"elsewhere", {{"records", there}, {"seconds", there_seconds}}}};
    std::cout << j.dump() << "\n";
    return 0;
  }
  if (records) std::cout << t.str() << "\n";
  for (const auto& [api, why] : plan.not_run) std::cout << api << ": not run here: " << why << "\n";
  if (there)
    std::cout << "where they can run: " << there << " runs, an estimated " << format_clock(there_seconds)
              << " (their device's clock watched, results checked on it)\n";
  std::cout << records << " runs";
  if (shard) std::cout << " (shard " << shard->index << "/" << shard->count << " of " << costs.size() << ")";
  else std::cout << " (" << plan.jobs.size() << " algorithms and parameter sets × " << plan.cases.size() << " cases)";
  std::cout << " into " << (std::filesystem::path(out) / plan.name).string() << ".jsonl, an estimated "
            << format_clock(seconds) << " (docs/cli.md, \"Sharding\", gives the model)\n";
  return 0;
}

} // namespace

int bench_command(const bench_args& a) {
  const suite s = a.quick ? load_suite(a.suite).quick() : load_suite(a.suite);
  if (!a.name.empty()) check_results_name("--name", a.name);
  const registry& reg = all_backends();
  const std::optional<shard_spec> shard = a.shard.empty() ? std::nullopt : std::optional(parse_shard(a.shard));
  run_options options{.warmup = a.warmup.value_or(s.warmup),
                      .reps = a.reps.value_or(s.reps),
                      .cold = a.cold,
                      .warmup_ns = a.warmup_ms.value_or(s.warmup_ms) * 1e6,
                      .prepare = {a.loop_check},
                      .max_noise = a.max_noise.value_or(0),
                      .timeout_ns = a.timeout_s * 1e9,
                      .min_time_ns = a.min_time_ms.value_or(s.min_time_ms) * 1e6,
                      .busy_ns = a.busy_ms.value_or(s.busy_ms) * 1e6,
                      .check = a.check};
  options.busy_timed = busy_in_timed_runs();
  if (a.list) return print_plan(reg, make_plan(a, s, reg), a.out, options, shard, a.json);

  // The folder is taken and the signals guarded before the plan probes the backends: a GPU driver
  // starts threads, and every thread must inherit the blocked mask. The name is known without probing.
  std::optional<results_folder> out;
  out.emplace(a.out, results_name(a, s));
  out->guard_signals();
  const bench_plan plan = make_plan(a, s, reg);
  for (const auto& [api, why] : plan.not_run) std::cerr << api << ": not run here: " << why << "\n";

  std::vector<case_spec> specs;
  for (const auto& c : plan.cases) specs.push_back(parse_spec(c));
  for (const auto& spec : specs) check_source(spec);

  // --shard: the records this shard runs (by plan position), and their keys without the device.
  const auto costs = plan_costs(plan, options);
  const auto shard_of = shard ? assign_shards(costs, shard->count) : std::vector<std::size_t>(costs.size(), 0);
  const auto mine = [&](std::size_t k) { return !shard || shard_of[k] == shard->index; };
  std::set<std::string> my_entries;
  if (shard) {
    for (std::size_t i = 0, k = 0; i < specs.size(); ++i)
      for (const auto& j : plan.jobs)
        if (mine(k++)) my_entries.insert(plan_entry_json(j.entry->info.full_name(), j.p, to_string(specs[i])));
    out->annotate("shard", "{\"index\":" + std::to_string(shard->index) + ",\"count\":" + std::to_string(shard->count) +
                               ",\"winnow\":" + nlohmann::json(version()).dump() + ",\"plan\":" + plan_json(plan) +
                               "}");
  }
  std::set<std::string> done_before;
  if (a.resume) {
    auto earlier = out->previous();
    // A shard keeps only its own records: another shard's (or an unsharded run's) would overlap.
    if (shard)
      std::erase_if(earlier, [&](const record& r) {
        return !my_entries.contains(plan_entry_json(r.algorithm, r.parameters, r.spec));
      });
    std::set<std::string> planned; // what this bench would measure: an earlier record must be one of these
    for (const auto& spec : specs)
      for (const auto& j : plan.jobs) {
        record key;
        key.algorithm = j.entry->info.full_name();
        key.parameters = j.p;
        key.spec = to_string(spec);
        key.device = reg.device(j.entry->info.api).device;
        planned.insert(resume_key(key));
      }
    for (const auto& r : earlier) {
      if (!planned.contains(resume_key(r)))
        throw usage_error("--resume: " + out->base().string() + " holds a record that this bench does not plan: " +
                          r.algorithm + " " + to_string(r.parameters) + " " + r.spec + " on " + r.device +
                          " (resume with the same suite, filters and device, or choose another --out)");
      done_before.insert(resume_key(r));
    }
    if (!earlier.empty()) std::cerr << "resuming: " << earlier.size() << " records from an earlier run\n";
    out->keep(std::move(earlier));
  }
  std::size_t total = 0;
  for (std::size_t k = 0; k < costs.size(); ++k) total += mine(k);
  out->describe(plan.not_run, total);
  std::cerr << "results: " << out->base().string() << ".jsonl (" << total << " runs)\n";
  // Per case, the jobs whose records the earlier run did not leave; a case with none is not even made.
  // The progress line estimates what is left record by record, from the cost model as this machine
  // runs it (progress.hpp).
  const auto model = plan_costs(plan, options, terms_here(reg, options));
  std::vector<std::vector<const bench_job*>> todo(specs.size());
  std::vector<std::size_t> planned_in(specs.size(), 0); // this shard's records of each case
  std::vector<case_spec> to_make;
  std::vector<progress_item> items;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    for (std::size_t jx = 0; jx < plan.jobs.size(); ++jx) {
      const bench_job& j = plan.jobs[jx];
      const std::size_t k = i * plan.jobs.size() + jx;
      if (!mine(k)) continue;
      ++planned_in[i];
      record key;
      key.algorithm = j.entry->info.full_name();
      key.parameters = j.p;
      key.spec = to_string(specs[i]);
      key.device = reg.device(j.entry->info.api).device;
      if (done_before.contains(resume_key(key))) continue;
      todo[i].push_back(&j);
      items.push_back({jx, static_cast<double>(model[k].n),
                       model[k].seconds + (todo[i].size() == 1 ? model[k].make_seconds : 0.0)});
    }
    if (!todo[i].empty()) to_make.push_back(specs[i]);
  }
  progress bar(total, std::move(items));
  const auto started = std::chrono::steady_clock::now();
  // Cases are made ahead, in the background, where every record times a GPU that the harness knows
  // by its identity (an NVIDIA GPU: its timers see only the device, and its clock is watched); not
  // for the CPU's algorithms or a software rasterizer, whose timings the making would share cores
  // with. WINNOW_MAKE_AHEAD=0 or 1 decides otherwise (the same build measured both ways).
  const bool ahead =
      env_flag("WINNOW_MAKE_AHEAD").value_or(std::all_of(plan.jobs.begin(), plan.jobs.end(), [&](const bench_job& j) {
        return reg.device(j.entry->info.api).identity.has_value();
      }));
  case_maker maker(std::move(to_make), ahead);
  std::vector<std::string> bad_inputs; // file: cases that could not be decoded
  for (std::size_t i = 0, made = 0; i < specs.size(); ++i) {
    const case_spec& spec = specs[i];
    const std::string name = to_string(spec);
    bar.skip(planned_in[i] - todo[i].size());
    if (todo[i].empty()) continue;
    const auto asked = std::chrono::steady_clock::now();
    made_case m = maker.take(made++);
    // What bench waited for the case: a batch's whole making where this case started one, else 0.
    double waited = ns_since(asked);
    if (m.c && m.c->w.spec != name) throw error("bench: case " + name + " was handed " + m.c->w.spec); // never: a bug
    // Too large for this machine is a suite meeting a small machine; a file: case that cannot be
    // decoded is bad input: its records are skipped, and bench exits 2 at the end, as run does.
    if (!m.c && spec.family == "file") bad_inputs.push_back(m.why_not);
    for (const bench_job* j : todo[i]) {
      std::cerr << bar.line(ns_since(started) * 1e-9) << " " << j->entry->info.full_name() << " "
                << (j->p.empty() ? "" : to_string(j->p) + " ") << name << " … " << std::flush;
      record r = m.c ? run_case(reg, *j->entry, j->p, *m.c, options)
                     : skipped_case(*j->entry, j->p, name, spec.n + gains_of(spec), m.why_not, options);
      if (!r.host_ns.empty()) {
        r.host_ns.insert(r.host_ns.begin(), {"make", waited}); // on the case's first record that ran
        waited = 0;
      }
      bar.finished(ns_since(started) * 1e-9, !r.skipped); // a record that did not run teaches nothing
      if (r.skipped) std::cerr << "skipped: " << *r.skipped << "\n";
      else if (!r.verified) std::cerr << "FAILED: " << r.mismatch << "\n";
      else std::cerr << format_ns(r.total.median) << " ± " << noise_text(r) << "\n";
      const bool lost = lost_context(r);
      out->add(std::move(r));
      if (lost) {
        // Nothing more can run on that API in this process: the journal holds every record so far
        // (this one failed, with the reason), and a fresh process resumes from it.
        std::cerr << "bench: " << j->entry->info.api
                  << " lost its context; the bench goes on in a fresh process (--resume)\n";
        out->hand_over();
        restart_fresh({"--resume"});
      }
    }
    if (m.c) recycle(*m.c); // the next cases' arrays
  }

  const std::vector<record>& records = out->finish();
  std::size_t failed = 0, noisy = 0;
  table t({"algorithm", "params", "case", "total (median)", "noise", "bandwidth", "result"});
  for (const auto& r : records) {
    failed += !r.skipped && !r.verified;
    noisy += !r.skipped && r.max_noise > 0 && r.total.noise() > r.max_noise;
    const std::string result = r.skipped ? "skipped" : r.verified ? "ok" : "FAILED";
    t.add({r.algorithm, to_string(r.parameters), r.spec, r.skipped ? "-" : format_ns(r.total.median), noise_text(r),
           r.skipped ? "-" : format_bandwidth(static_cast<double>(r.bytes_read + r.bytes_written), r.total.median),
           result});
  }
  if (!records.empty()) std::cout << t.str() << "\n";
  if (a.seeds.value_or(s.seeds) > 1) {
    // The paper's statistics, beside the records (which stay one per seed).
    const std::vector<seed_summary> summaries = summarize_seeds(records);
    std::string lines;
    for (const auto& x : summaries) lines += to_json_line(x) + "\n";
    write_atomically(out->base().string() + ".seeds.jsonl", lines);
    write_atomically(out->base().string() + ".seeds.csv", to_csv(summaries));
    table st({"algorithm", "params", "case (every seed)", "seeds", "total (log mean)", "total (max)"});
    for (const auto& x : summaries)
      st.add({x.algorithm, to_string(x.parameters), x.spec, std::to_string(x.seeds.size()),
              x.seeds.empty() ? "-" : format_ns(x.total_log_mean_ns),
              x.seeds.empty() ? "-" : format_ns(x.total_max_ns)});
    if (!summaries.empty()) std::cout << st.str() << "\n";
    std::cout << "wrote " << out->base().string() << ".seeds.jsonl and .csv (" << summaries.size() << " summaries)\n";
  }
  for (const auto& [api, why] : plan.not_run) std::cout << api << ": not run here: " << why << "\n";
  if (noisy)
    std::cout << noisy << " records stayed over --max-noise " << options.max_noise * 100 << " % at the --timeout of "
              << a.timeout_s << " s (marked \"over\")\n";
  std::cout << "wrote " << out->base().string() << ".jsonl and .csv (" << records.size() << " records, " << failed
            << " failed)\n";
  if (plan.jobs.empty()) {
    std::cerr << "bench: nothing could run here\n";
    return 1;
  }
  for (const auto& why : bad_inputs) std::cerr << "bench: " << why << "\n";
  if (!bad_inputs.empty()) return 2;
  return failed ? 1 : 0;
}

} // namespace winnow::cli
