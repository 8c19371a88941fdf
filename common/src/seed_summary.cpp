#include "winnow/seed_summary.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>

#include "winnow/corpus.hpp"

namespace winnow {
namespace {

/// exp(mean(ln x)) of positive values; 0 when there are none.
double log_mean(const std::vector<double>& xs) {
  double sum = 0;
  std::size_t n = 0;
  for (double x : xs)
    if (x > 0) sum += std::log(x), ++n;
  return n ? std::exp(sum / static_cast<double>(n)) : 0;
}

} // namespace

std::vector<seed_summary> summarize_seeds(const std::vector<record>& rows) {
  struct group {
    seed_summary s;
    std::vector<std::string> phase_order;
    std::map<std::string, std::vector<double>> phases;
    std::vector<double> totals;
  };
  std::vector<group> groups;
  std::map<std::string, std::size_t> index;
  for (const auto& r : rows) {
    case_spec spec = parse_spec(r.spec);
    const auto seed = spec.keys.find("seed");
    if (seed == spec.keys.end()) continue;
    const std::uint64_t seed_value = std::stoull(seed->second);
    spec.keys.erase(seed);
    const std::string base = to_string(spec);
    const std::string key = r.api + '\n' + r.algorithm + '\n' + to_string(r.parameters) + '\n' + r.device + '\n' + base;
    auto [it, fresh] = index.emplace(key, groups.size());
    if (fresh) {
      groups.emplace_back();
      groups.back().s = {
          .api = r.api, .algorithm = r.algorithm, .device = r.device, .parameters = r.parameters, .spec = base};
    }
    group& g = groups[it->second];
    if (r.skipped) {
      ++g.s.skipped;
      continue;
    }
    if (!r.verified) {
      ++g.s.failed;
      continue;
    }
    g.s.seeds.push_back(seed_value);
    g.totals.push_back(r.total.median);
    for (const auto& p : r.phases) {
      if (!g.phases.contains(p.name)) g.phase_order.push_back(p.name);
      g.phases[p.name].push_back(p.ns.median);
    }
  }
  std::vector<seed_summary> out;
  for (auto& g : groups) {
    std::sort(g.s.seeds.begin(), g.s.seeds.end());
    for (const auto& name : g.phase_order) g.s.phase_log_mean_ns.emplace_back(name, log_mean(g.phases[name]));
    g.s.total_log_mean_ns = log_mean(g.totals);
    if (!g.totals.empty()) {
      g.s.total_min_ns = *std::min_element(g.totals.begin(), g.totals.end());
      g.s.total_max_ns = *std::max_element(g.totals.begin(), g.totals.end());
    }
    out.push_back(std::move(g.s));
  }
  return out;
}

std::string to_json_line(const seed_summary& s) {
  nlohmann::ordered_json j;
  j["schema"] = record_schema_version;
  j["api"] = s.api;
  j["algorithm"] = s.algorithm;
  j["params"] = s.parameters;
  j["case"] = s.spec;
  j["device"] = s.device;
  j["seeds"] = s.seeds;
  j["failed"] = s.failed;
  j["skipped"] = s.skipped;
  nlohmann::ordered_json phases = nlohmann::ordered_json::array();
  for (const auto& [name, ns] : s.phase_log_mean_ns) phases.push_back({{"name", name}, {"log_mean_ns", ns}});
  j["phases"] = phases;
  j["total"] = {{"log_mean_ns", s.total_log_mean_ns}, {"min_ns", s.total_min_ns}, {"max_ns", s.total_max_ns}};
  return j.dump();
}

std::string to_csv(const std::vector<seed_summary>& rows) {
  std::vector<std::string> names;
  for (const auto& r : rows)
    for (const auto& [name, ns] : r.phase_log_mean_ns)
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  std::string out =
      "schema,api,algorithm,params,case,device,seeds,failed,skipped,total_log_mean_ns,total_min_ns,total_max_ns";
  for (const auto& name : names) out += "," + name + "_log_mean_ns";
  out += "\n";
  for (const auto& r : rows) {
    std::string seeds;
    for (auto s : r.seeds) seeds += (seeds.empty() ? "" : ";") + std::to_string(s);
    const std::vector<std::string> fields = {std::to_string(record_schema_version),
                                             r.api,
                                             r.algorithm,
                                             csv_params(r.parameters),
                                             r.spec,
                                             r.device,
                                             seeds,
                                             std::to_string(r.failed),
                                             std::to_string(r.skipped),
                                             num(r.total_log_mean_ns),
                                             num(r.total_min_ns),
                                             num(r.total_max_ns)};
    std::string line;
    for (const auto& f : fields) line += (line.empty() ? "" : ",") + csv_field(f);
    for (const auto& name : names) {
      auto it = std::find_if(r.phase_log_mean_ns.begin(), r.phase_log_mean_ns.end(),
                             [&](const auto& p) { return p.first == name; });
      line += "," + (it == r.phase_log_mean_ns.end() ? std::string() : num(it->second));
    }
    out += line + "\n";
  }
  return out;
}

} // namespace winnow
