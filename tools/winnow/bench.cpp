#include <algorithm>
#include <filesystem>
#include <iostream>

#include "commands.hpp"
#include "memory.hpp"
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
  const registry& reg = all_backends();
  const suite s = load_suite(a.suite);
  for (const auto& api : a.apis) (void)reg.find_backend(api); // usage error for an unknown api
  for (const auto& name : a.algos) (void)reg.find(name);

  std::vector<job> jobs;
  for (const auto& b : reg.backends()) {
    if (!wanted(s.apis, b.api) || !wanted(a.apis, b.api)) continue;
    for (const auto& e : b.algorithms) {
      if (!wanted(s.algorithms, e.info.full_name()) || !wanted(a.algos, e.info.full_name())) continue;
      for (const auto& p : param_grid(s, e.info)) jobs.push_back({&e, resolve_params(e.info, p).texts()});
    }
  }
  if (jobs.empty()) throw usage_error("bench: the filters leave no algorithm to run (see `winnow list`)");

  std::vector<case_spec> specs;
  for (const auto& c : a.cases.empty() ? s.expanded_cases() : a.cases) specs.push_back(parse_spec(c));
  run_options options{a.warmup.value_or(s.warmup), a.reps.value_or(s.reps), a.cold, a.warmup_ms.value_or(s.warmup_ms) * 1e6,
                      {a.loop_check}};

  std::filesystem::create_directories(a.out);
  std::vector<record> records;
  const std::size_t total = jobs.size() * specs.size();
  std::size_t done = 0, failed = 0;
  for (const auto& spec : specs) {
    const std::string name = to_string(spec);
    std::optional<prepared_case> c;
    std::string why_not;
    try {
      check_fits(spec);
      c.emplace(prepared_case{generate(spec), {}});
      c->expected = reference_compact(c->w);
    } catch (const usage_error& e) {
      why_not = e.what(); // too large for memory, unreadable file: every job of this case is skipped
    }
    for (const auto& j : jobs) {
      ++done;
      std::cerr << "[" << done << "/" << total << "] " << j.entry->info.full_name() << " "
                << (j.p.empty() ? "" : to_string(j.p) + " ") << name << " … " << std::flush;
      record r = c ? run_case(reg, *j.entry, j.p, *c, options) : skipped_case(*j.entry, j.p, name, spec.n, why_not, options);
      if (r.skipped) std::cerr << "skipped: " << *r.skipped << "\n";
      else if (!r.verified) std::cerr << "FAILED: " << r.mismatch << "\n";
      else std::cerr << format_ns(r.total.median) << "\n";
      failed += !r.skipped && !r.verified;
      records.push_back(std::move(r));
    }
  }

  const auto base = std::filesystem::path(a.out) / s.name;
  write_jsonl(base.string() + ".jsonl", records);
  write_csv(base.string() + ".csv", records);

  table t({"algorithm", "params", "case", "total (median)", "bandwidth", "result"});
  for (const auto& r : records) {
    const std::string result = r.skipped ? "skipped" : r.verified ? "ok" : "FAILED";
    t.add({r.algorithm, to_string(r.parameters), r.spec, r.skipped ? "-" : format_ns(r.total.median),
           r.skipped ? "-" : format_bandwidth(static_cast<double>(r.bytes_read + r.bytes_written), r.total.median), result});
  }
  std::cout << t.str() << "\nwrote " << base.string() << ".jsonl and .csv (" << records.size() << " records, " << failed
            << " failed)\n";
  return failed ? 1 : 0;
}

} // namespace winnow::cli
