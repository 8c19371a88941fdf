#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>

#include "commands.hpp"
#include "memory.hpp"
#include "results_folder.hpp"
#include "suite.hpp"
#include "table.hpp"
#include "winnow/backends.hpp"
#include "winnow/corpus.hpp"
#include "winnow/error.hpp"
#include "winnow/reference.hpp"

namespace winnow::cli {
namespace {

bool wanted(const std::vector<std::string>& filter, const std::string& x) {
  return filter.empty() || std::find(filter.begin(), filter.end(), x) != filter.end();
}

/// Every combination of the suite's value lists for this algorithm (one empty set when none).
std::vector<params> param_grid(const suite& s, const algorithm_info& info) {
  auto it = s.params.find(info.full_name());
  if (it == s.params.end()) return {{}};
  return product({it->second.begin(), it->second.end()});
}

struct job {
  const algorithm_entry* entry;
  params p;
};

} // namespace

int bench_command(const bench_args& a) {
  const suite s = a.quick ? load_suite(a.suite).quick() : load_suite(a.suite);
  results_folder out(a.out, s.name);
  // Before anything starts a thread (the GPU drivers do): every thread inherits the blocked mask.
  out.guard_signals();
  const registry& reg = all_backends();
  for (const auto& api : a.apis) (void)reg.find_backend(api); // usage error for an unknown api
  for (const auto& name : a.algos) (void)reg.find(name);
  for (const auto& [name, values] : s.params)
    (void)reg.find(name); // usage error naming the unknown algorithm and the known ones

  std::vector<job> jobs;
  std::map<std::string, std::string> not_run; // api → why it cannot run here, said once
  for (const auto& b : reg.backends()) {
    if (!wanted(s.apis, b.api) || !wanted(a.apis, b.api)) continue;
    std::vector<job> mine;
    for (const auto& e : b.algorithms) {
      if (!wanted(s.algorithms, e.info.full_name()) || !wanted(a.algos, e.info.full_name())) continue;
      for (const auto& p : param_grid(s, e.info)) mine.push_back({&e, resolve_params(e.info, p).texts()});
    }
    if (mine.empty()) continue;
    if (auto why = reg.unavailable_reason(b.api)) not_run[b.api] = *why;
    else jobs.insert(jobs.end(), mine.begin(), mine.end());
  }
  if (jobs.empty() && not_run.empty()) throw usage_error("bench: the filters leave no algorithm to run (see `winnow list`)");
  for (const auto& [api, why] : not_run) std::cerr << api << ": not run here: " << why << "\n";

  std::vector<case_spec> specs;
  for (const auto& c : a.cases.empty() ? s.expanded_cases() : a.cases) specs.push_back(parse_spec(c));
  for (const auto& spec : specs) check_source(spec);
  run_options options{a.warmup.value_or(s.warmup), a.reps.value_or(s.reps), a.cold, a.warmup_ms.value_or(s.warmup_ms) * 1e6,
                      {a.loop_check}};

  std::set<std::string> done_before;
  if (a.resume) {
    auto earlier = out.previous();
    for (const auto& r : earlier) done_before.insert(resume_key(r));
    if (!earlier.empty()) std::cerr << "resuming: " << earlier.size() << " records from an earlier run\n";
    out.keep(std::move(earlier));
  }
  const std::size_t total = jobs.size() * specs.size();
  out.describe(not_run, total);
  std::size_t done = 0;
  std::vector<std::string> bad_inputs; // file: cases that could not be decoded
  for (const auto& spec : specs) {
    const std::string name = to_string(spec);
    std::vector<const job*> todo;
    for (const auto& j : jobs) {
      record key;
      key.algorithm = j.entry->info.full_name();
      key.parameters = j.p;
      key.spec = name;
      key.device = reg.device(j.entry->info.api).device;
      if (!done_before.contains(resume_key(key))) todo.push_back(&j);
    }
    done += jobs.size() - todo.size();
    if (todo.empty()) continue; // every record of this case is from the earlier run: do not even make it
    std::optional<prepared_case> c;
    std::string why_not;
    try {
      check_fits(spec);
      c.emplace(prepared_case{generate(spec), {}});
      c->expected = reference_compact(c->w);
    } catch (const usage_error& e) {
      why_not = e.what(); // every job of this case is skipped
      // Too large for this machine is a suite meeting a small machine; a file: case that cannot be
      // decoded is bad input: its records are skipped, and bench exits 2 at the end, as run does.
      if (spec.family == "file") bad_inputs.push_back(why_not);
    }
    for (const job* j : todo) {
      ++done;
      std::cerr << "[" << done << "/" << total << "] " << j->entry->info.full_name() << " "
                << (j->p.empty() ? "" : to_string(j->p) + " ") << name << " … " << std::flush;
      record r = c ? run_case(reg, *j->entry, j->p, *c, options) : skipped_case(*j->entry, j->p, name, spec.n, why_not, options);
      if (r.skipped) std::cerr << "skipped: " << *r.skipped << "\n";
      else if (!r.verified) std::cerr << "FAILED: " << r.mismatch << "\n";
      else std::cerr << format_ns(r.total.median) << "\n";
      out.add(std::move(r));
    }
  }

  const std::vector<record>& records = out.finish();
  std::size_t failed = 0;
  table t({"algorithm", "params", "case", "total (median)", "bandwidth", "result"});
  for (const auto& r : records) {
    failed += !r.skipped && !r.verified;
    const std::string result = r.skipped ? "skipped" : r.verified ? "ok" : "FAILED";
    t.add({r.algorithm, to_string(r.parameters), r.spec, r.skipped ? "-" : format_ns(r.total.median),
           r.skipped ? "-" : format_bandwidth(static_cast<double>(r.bytes_read + r.bytes_written), r.total.median), result});
  }
  if (!records.empty()) std::cout << t.str() << "\n";
  for (const auto& [api, why] : not_run) std::cout << api << ": not run here: " << why << "\n";
  std::cout << "wrote " << out.base().string() << ".jsonl and .csv (" << records.size() << " records, " << failed
            << " failed)\n";
  if (jobs.empty()) {
    std::cerr << "bench: nothing could run here\n";
    return 1;
  }
  for (const auto& why : bad_inputs) std::cerr << "bench: " << why << "\n";
  if (!bad_inputs.empty()) return 2;
  return failed ? 1 : 0;
}

} // namespace winnow::cli
