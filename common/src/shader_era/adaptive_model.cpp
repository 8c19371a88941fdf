#include "winnow/shader_era/adaptive_model.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <tuple>

#include "winnow/corpus.hpp"
#include "winnow/error.hpp"

namespace winnow::shader_era {
namespace {

namespace fs = std::filesystem;

/// The .jsonl files of `path`: itself, or those under it that hold final records.
std::vector<fs::path> record_files(const std::string& path) {
  std::error_code ec;
  if (fs::is_regular_file(path, ec)) return {fs::path(path)};
  if (!fs::is_directory(path, ec))
    throw usage_error("model=" + path + ": no such file or folder (records of the moreira suite)");
  std::vector<fs::path> out;
  for (const auto& e : fs::recursive_directory_iterator(path, ec)) {
    const std::string name = e.path().filename().string();
    const auto ends = [&](std::string_view tail) { return name.size() >= tail.size() && name.ends_with(tail); };
    if (e.is_regular_file() && ends(".jsonl") && !ends(".journal.jsonl") && !ends(".seeds.jsonl"))
      out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<training_record> read_records(const std::string& path, const std::string& api) {
  std::vector<training_record> out;
  for (const fs::path& file : record_files(path)) {
    std::ifstream in(file);
    if (!in) throw usage_error("model=" + path + ": cannot read " + file.string());
    std::string line;
    while (std::getline(in, line)) {
      const auto j = nlohmann::json::parse(line, nullptr, false);
      if (j.is_discarded() || !j.is_object()) continue; // not a record (a truncated journal line)
      if (j.value("api", "") != api || !j.value("verified", false) || !j.contains("total")) continue;
      const std::string full = j.value("algorithm", "");
      const std::string name = full.substr(full.find('/') + 1);
      if (!kind_named(name) || !j["total"].contains("median_ns")) continue;
      training_record r{
          name, {}, j.value("case", ""), j.value("n", std::uint64_t{0}), j["total"]["median_ns"].get<double>()};
      if (j.contains("params") && j["params"].is_object())
        for (const auto& [k, v] : j["params"].items())
          if (v.is_string()) r.given[k] = v.get<std::string>();
      if (j.contains("phases") && j["phases"].is_array())
        for (const auto& ph : j["phases"])
          if (ph.is_object() && ph.contains("name") && ph["name"].is_string() && ph.contains("median_ns") &&
              ph["median_ns"].is_number())
            r.phases[ph["name"].get<std::string>()] += ph["median_ns"].get<double>();
      if (r.n > 0 && r.ns > 0) out.push_back(std::move(r));
    }
  }
  // Unavailable, not a usage error: the record is skipped with the reason, and a bench goes on (its
  // model=pass records and the fixed choices are still measured).
  if (out.empty())
    throw unavailable("model=" + path + ": no verified records of " + api +
                      "/horn, jj, rlz or bt there (bench the moreira suite with --api " + api + " first)");
  return out;
}

/// The features of a case as the sample pass would see them: the stream after its marks.
std::optional<features> case_features(const std::string& spec) {
  try {
    workload w = generate(spec);
    for (const std::uint32_t i : w.removals) w.data.at(i) = 0;
    const sample_shape s = sample_shape_for(w.size());
    return features_of(estimate(sample_words(w.data, s), s));
  } catch (const error&) {
    return std::nullopt; // a file: case that is not here: it trains nothing
  }
}

/// The β minimising the relative error Σ ((x·β − y) / y)², the choice being judged by its ratio to the
/// best (a 50 µs miss matters on a 1 ms case, not on a 20 ms one): solves (XᵀWX + λI) β = XᵀWy, W the
/// weights 1 / y², by Gaussian elimination with partial pivoting; λ keeps a feature that no training
/// case varies (all p = 0.5, say) from making the system singular. Every y > 0 (read_records keeps
/// only positive times).
features least_squares(const std::vector<features>& x, const std::vector<double>& y) {
  constexpr std::size_t m = feature_count;
  double a[m][m + 1] = {};
  for (std::size_t r = 0; r < x.size(); ++r) {
    const double w = 1.0 / (y[r] * y[r]);
    for (std::size_t i = 0; i < m; ++i) {
      for (std::size_t k = 0; k < m; ++k) a[i][k] += w * x[r][i] * x[r][k];
      a[i][m] += w * x[r][i] * y[r];
    }
  }
  double trace = 0;
  for (std::size_t i = 0; i < m; ++i) trace += a[i][i];
  for (std::size_t i = 0; i < m; ++i) a[i][i] += 1e-6 * trace / m + 1e-12;
  for (std::size_t c = 0; c < m; ++c) {
    std::size_t pivot = c;
    for (std::size_t r = c + 1; r < m; ++r)
      if (std::abs(a[r][c]) > std::abs(a[pivot][c])) pivot = r;
    for (std::size_t k = 0; k <= m; ++k) std::swap(a[c][k], a[pivot][k]);
    for (std::size_t r = 0; r < m; ++r) {
      if (r == c) continue;
      const double f = a[r][c] / a[c][c];
      for (std::size_t k = c; k <= m; ++k) a[r][k] -= f * a[c][k];
    }
  }
  features beta{};
  for (std::size_t i = 0; i < m; ++i) beta[i] = a[i][m] / a[i][i];
  return beta;
}

} // namespace

std::optional<algorithm_kind> kind_named(std::string_view name) {
  if (name == "horn") return algorithm_kind::horn;
  if (name == "jj") return algorithm_kind::jj;
  if (name == "rlz") return algorithm_kind::rlz;
  if (name == "bt") return algorithm_kind::bt;
  return std::nullopt;
}

double predict_ns_per_element(const adaptive_candidate& c, const features& f) {
  double t = 0;
  for (std::size_t i = 0; i < feature_count; ++i) t += c.beta[i] * f[i];
  return t;
}

adaptive_model fit(const std::vector<training_record>& records, std::uint64_t n,
                   const std::function<std::optional<features>(const std::string&)>& features_of_case) {
  adaptive_model m;
  // The records' size nearest n by ratio (the larger on a tie).
  const auto distance = [&](std::uint64_t size) {
    return std::abs(std::log(double(size) / double(std::max<std::uint64_t>(n, 1))));
  };
  for (const training_record& r : records)
    if (m.trained_n == 0 || distance(r.n) < distance(m.trained_n) ||
        (distance(r.n) == distance(m.trained_n) && r.n > m.trained_n))
      m.trained_n = r.n;
  // record_of[candidate][case]; a candidate is the algorithm and its parameters as printed.
  std::map<std::string, std::optional<features>> cases;
  std::map<std::pair<std::string, std::string>, std::map<std::string, const training_record*>> record_of;
  for (const training_record& r : records) {
    if (r.n != m.trained_n) continue;
    if (!cases.contains(r.case_spec)) cases[r.case_spec] = features_of_case(r.case_spec);
    if (cases[r.case_spec]) record_of[{r.algorithm, to_string(r.given)}][r.case_spec] = &r;
  }
  std::vector<std::string> usable;
  for (const auto& [spec, f] : cases)
    if (f) usable.push_back(spec);
  std::map<std::pair<std::string, std::string>, std::size_t> wins;
  std::map<std::string, double> fastest; // per case, over every parameter set
  for (const std::string& spec : usable) {
    const std::pair<std::string, std::string>* best = nullptr;
    double best_ns = 0;
    for (const auto& [key, t] : record_of)
      if (const auto it = t.find(spec); it != t.end() && (!best || it->second->ns < best_ns)) {
        best = &key;
        best_ns = it->second->ns;
      }
    if (best) {
      ++wins[*best];
      fastest[spec] = best_ns;
    }
  }
  // Candidates with a record on every case; fastest most often first, then by total time.
  std::vector<std::tuple<std::size_t, double, std::pair<std::string, std::string>>> ranked;
  for (const auto& [key, w] : wins) {
    const auto& t = record_of[key];
    if (t.size() != usable.size()) continue;
    double sum = 0;
    for (const auto& [spec, r] : t) sum += r->ns;
    ranked.emplace_back(w, -sum, key);
  }
  std::sort(ranked.rbegin(), ranked.rend());
  if (ranked.size() > max_candidates) ranked.resize(max_candidates);
  m.cases = usable;
  for (const auto& [w, negative_sum, key] : ranked) {
    adaptive_candidate c;
    c.algorithm = *kind_named(key.first);
    c.wins = w;
    std::vector<features> x;
    std::vector<double> y;
    for (const std::string& spec : usable) {
      const training_record& r = *record_of[key].at(spec);
      c.given = r.given;
      x.push_back(*cases[spec]);
      y.push_back(r.ns / double(m.trained_n));
      c.worst_regret_ns = std::max(c.worst_regret_ns, r.ns - fastest.at(spec));
      c.mean_regret_ns += (r.ns - fastest.at(spec)) / double(usable.size());
      for (const auto& [phase, ns] : r.phases) c.phase_ns[phase] += ns / double(m.trained_n) / double(usable.size());
    }
    c.beta = least_squares(x, y);
    m.candidates.push_back(std::move(c));
  }
  return m;
}

const adaptive_model& fitted_model(const std::string& path, const std::string& api, std::uint64_t n) {
  static std::mutex mutex;
  static std::map<std::tuple<std::string, std::string, std::uint64_t>, adaptive_model> fitted;
  const std::lock_guard lock(mutex);
  const auto key = std::make_tuple(path, api, n);
  if (const auto it = fitted.find(key); it != fitted.end()) return it->second;
  adaptive_model m = fit(read_records(path, api), n, case_features);
  if (m.candidates.empty())
    throw unavailable("model=" + path + ": no parameter set of " + api + " has a record on every case at n = " +
                      std::to_string(m.trained_n) + " (the model needs one complete sweep)");
  m.source = path;
  return fitted.emplace(key, std::move(m)).first->second;
}

} // namespace winnow::shader_era
