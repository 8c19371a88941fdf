#include "bench_plan.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <set>

#include "winnow/corpus.hpp"
#include "winnow/error.hpp"

namespace winnow::cli {
namespace {

/// Every name of `known` that `filter` selects: a glob by match, a plain name by equality.
bool selects(const std::vector<std::string>& filters, const std::string& name) {
  return filters.empty() ||
         std::any_of(filters.begin(), filters.end(), [&](const std::string& f) { return glob_match(f, name); });
}

std::vector<std::string> algorithm_names(const registry& reg) {
  std::vector<std::string> names;
  for (const auto& b : reg.backends())
    for (const auto& e : b.algorithms) names.push_back(e.info.full_name());
  return names;
}

/// Every --algo filter must select an algorithm of this build's registry (even one that cannot run
/// here): an exact name through registry::find (its message lists the known ones), a glob by match.
void check_algorithm_filters(const std::vector<std::string>& filters, const registry& reg) {
  const auto names = algorithm_names(reg);
  for (const auto& f : filters) {
    if (!is_glob(f)) {
      (void)reg.find(f);
      continue;
    }
    if (std::none_of(names.begin(), names.end(), [&](const std::string& n) { return glob_match(f, n); }))
      throw usage_error("--algo '" + f + "' matches no algorithm (`winnow list` shows them all)");
  }
}

/// The cases: the suite's (narrowed by the --case globs, if any) and the --case specs.
std::vector<std::string> select_cases(const bench_args& a, const suite& s) {
  std::vector<std::string> globs, specs;
  for (const auto& c : a.cases) (is_glob(c) ? globs : specs).push_back(c);
  if (globs.empty()) return specs.empty() ? s.expanded_cases() : specs;
  std::vector<std::string> out;
  const auto suite_cases = s.expanded_cases();
  for (const auto& g : globs)
    if (std::none_of(suite_cases.begin(), suite_cases.end(), [&](const std::string& c) { return glob_match(g, c); })) {
      std::string some;
      for (std::size_t i = 0; i < std::min<std::size_t>(suite_cases.size(), 6); ++i)
        some += (i ? ", " : "") + suite_cases[i];
      throw usage_error("--case '" + g + "' matches none of suite " + s.name + "'s " +
                        std::to_string(suite_cases.size()) + " cases (" + some + (suite_cases.size() > 6 ? ", …" : "") +
                        ")");
    }
  for (const auto& c : suite_cases)
    if (selects(globs, c)) out.push_back(c);
  out.insert(out.end(), specs.begin(), specs.end());
  return out;
}

std::string sweep_text(const param_sweep& sw) {
  std::string values;
  for (const auto& v : sw.values) values += (values.empty() ? "" : ",") + v;
  return (sw.pattern.empty() ? "" : sw.pattern + ":") + sw.key + "=" + values;
}

/// The parameter sets of one algorithm: each of the suite's grids (its value lists, then each --param
/// sweep that applies in their place) as a product, one grid after another.
std::vector<params> grid(const suite& s, const algorithm_info& info, const std::vector<param_sweep>& sweeps,
                         std::vector<bool>& used) {
  std::vector<std::map<std::string, std::vector<std::string>>> grids{{}};
  if (auto it = s.params.find(info.full_name()); it != s.params.end()) grids = it->second;
  std::map<std::string, std::size_t> swept; // key → the sweep that set it for this algorithm
  for (std::size_t i = 0; i < sweeps.size(); ++i) {
    const auto& sw = sweeps[i];
    if (!sw.pattern.empty() && !glob_match(sw.pattern, info.full_name())) continue;
    const bool has =
        std::any_of(info.axes.begin(), info.axes.end(), [&](const param_axis& x) { return x.key == sw.key; });
    if (!has) {
      // A sweep aimed at this algorithm by name must fit it; a global one applies where it fits.
      if (!sw.pattern.empty() && !is_glob(sw.pattern)) (void)resolve_params(info, {{sw.key, sw.values.front()}});
      continue;
    }
    // A second list for one key would silently replace the first (run refuses a repeated key too).
    if (const auto [it, fresh] = swept.emplace(sw.key, i); !fresh)
      throw usage_error("--param " + sw.key + " is given twice for " + info.full_name() + " (" +
                        sweep_text(sweeps[it->second]) + " and " + sweep_text(sw) + "): give one list, e.g. --param " +
                        sw.key + "=V1,V2");
    for (auto& lists : grids) lists[sw.key] = sw.values;
    used[i] = true;
  }
  std::vector<params> out;
  for (const auto& lists : grids)
    for (auto& p : product({lists.begin(), lists.end()})) out.push_back(std::move(p));
  return out;
}

} // namespace

std::string results_name(const bench_args& a, const suite& s) {
  if (!a.name.empty()) return a.name;
  // The default suite's name on the user's own cases would say they are the default sweep.
  const bool own = std::any_of(a.cases.begin(), a.cases.end(), [](const std::string& c) { return !is_glob(c); });
  return own && !a.suite_given ? "custom" : s.name;
}

bool is_glob(const std::string& pattern) { return pattern.find_first_of("*?[") != std::string::npos; }

bool glob_match(const std::string& pattern, const std::string& name) {
  return ::fnmatch(pattern.c_str(), name.c_str(), 0) == 0;
}

param_sweep parse_sweep(const std::string& text) {
  const auto eq = text.find('=');
  const std::string usage = "--param '" + text + "' is not [ALGORITHM:]KEY=V1,V2,… (e.g. --param block=32,256)";
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size()) throw usage_error(usage);
  param_sweep sw;
  const std::string left = text.substr(0, eq);
  const auto colon = left.rfind(':');
  sw.pattern = colon == std::string::npos ? "" : left.substr(0, colon);
  sw.key = colon == std::string::npos ? left : left.substr(colon + 1);
  if (sw.key.empty() || (colon != std::string::npos && sw.pattern.empty())) throw usage_error(usage);
  const std::string values = text.substr(eq + 1);
  for (std::size_t start = 0; start <= values.size();) {
    const std::size_t end = std::min(values.find(',', start), values.size());
    if (end == start) throw usage_error("--param '" + text + "' has an empty value");
    sw.values.push_back(values.substr(start, end - start));
    start = end + 1;
  }
  return sw;
}

/// --seeds N: every case whose family has a seed, N times with seeds s … s + N − 1 (s: its own seed),
/// one after another; other cases once.
static std::vector<std::string> with_seeds(const std::vector<std::string>& cases, int seeds) {
  if (seeds <= 1) return cases;
  std::vector<std::string> out;
  for (const auto& c : cases) {
    case_spec spec = parse_spec(c);
    const auto seed = spec.keys.find("seed");
    if (seed == spec.keys.end()) {
      out.push_back(c);
      continue;
    }
    const std::uint64_t first = std::stoull(seed->second);
    if (first + static_cast<std::uint64_t>(seeds) - 1 > 0xFFFF'FFFFull)
      throw usage_error("--seeds " + std::to_string(seeds) + ": case " + c + " would need seeds past 2^32 - 1");
    for (int i = 0; i < seeds; ++i) {
      spec.keys["seed"] = std::to_string(first + static_cast<std::uint64_t>(i));
      out.push_back(to_string(spec));
    }
  }
  return out;
}

bench_plan make_plan(const bench_args& a, const suite& s, const registry& reg) {
  for (const auto& api : a.apis) (void)reg.find_backend(api); // usage error for an unknown api
  check_algorithm_filters(a.algos, reg);
  for (const auto& [name, values] : s.params) (void)reg.find(name); // the suite names a known algorithm
  // The suite's own filters, each named when it selects nothing (not only "no algorithm to run").
  for (const auto& api : s.apis) try {
      (void)reg.find_backend(api);
    } catch (const usage_error& e) { throw usage_error("suite " + s.origin + ": \"apis\": " + e.what()); }
  const auto known = algorithm_names(reg);
  for (const auto& name : s.algorithms) {
    if (is_glob(name)) {
      if (std::none_of(known.begin(), known.end(), [&](const std::string& k) { return glob_match(name, k); }))
        throw usage_error("suite " + s.origin + ": \"algorithms\": '" + name +
                          "' matches no algorithm (`winnow list` shows them all)");
      continue;
    }
    try {
      (void)reg.find(name);
    } catch (const usage_error& e) { throw usage_error("suite " + s.origin + ": \"algorithms\": " + e.what()); }
  }
  std::vector<param_sweep> sweeps;
  for (const auto& text : a.params) sweeps.push_back(parse_sweep(text));
  for (const auto& sw : sweeps)
    if (!sw.pattern.empty()) check_algorithm_filters({sw.pattern}, reg);

  bench_plan plan;
  // One case twice would be measured twice, and its two records could not be told apart (compare,
  // --resume): it is planned once, and the repetition said (in whatever spelling it came).
  std::map<std::string, std::string> canonical; // canonical spec → as given first
  for (const auto& c : with_seeds(select_cases(a, s), a.seeds.value_or(s.seeds))) {
    const auto [it, fresh] = canonical.emplace(to_string(parse_spec(c)), c);
    if (fresh) plan.cases.push_back(c);
    else
      std::cerr << "bench: case " << c << " is the case " << it->second << " again"
                << (c == it->second ? "" : " (both are " + it->first + ")") << "; it runs once\n";
  }
  plan.name = results_name(a, s);

  std::vector<bool> used(sweeps.size(), false);
  std::set<std::string> selected_keys; // every parameter of the selected algorithms, for did-you-mean
  for (const auto& b : reg.backends()) {
    if (!selects(s.apis, b.api) || !selects(a.apis, b.api)) continue;
    std::vector<bench_job> mine;
    for (const auto& e : b.algorithms) {
      const std::string name = e.info.full_name();
      if (!selects(s.algorithms, name) || !selects(a.algos, name)) continue;
      for (const auto& x : e.info.axes) selected_keys.insert(x.key);
      for (const auto& p : grid(s, e.info, sweeps, used)) {
        bench_job job{&e, resolve_params(e.info, p).texts()};
        // Grids of one algorithm may meet once defaults are filled in: each set runs once.
        if (std::none_of(mine.begin(), mine.end(),
                         [&](const bench_job& m) { return m.entry == job.entry && m.p == job.p; }))
          mine.push_back(std::move(job));
      }
    }
    if (mine.empty()) continue;
    if (auto why = reg.unavailable_reason(b.api)) {
      plan.not_run[b.api] = *why;
      plan.elsewhere.insert(plan.elsewhere.end(), mine.begin(), mine.end());
    } else {
      plan.jobs.insert(plan.jobs.end(), mine.begin(), mine.end());
    }
  }
  if (plan.jobs.empty() && plan.not_run.empty())
    throw usage_error("bench: the filters leave no algorithm to run (see `winnow list`)");
  for (std::size_t i = 0; i < sweeps.size(); ++i)
    if (!used[i])
      throw usage_error("--param " + sweeps[i].key + ": no selected algorithm" +
                        (sweeps[i].pattern.empty() ? "" : " matching '" + sweeps[i].pattern + "'") +
                        " has this parameter" +
                        did_you_mean(sweeps[i].key, {selected_keys.begin(), selected_keys.end()}));
  return plan;
}

} // namespace winnow::cli
