#include "suite.hpp"

#include <nlohmann/json.hpp>
#include <set>

#include "winnow/error.hpp"

namespace winnow::cli {
namespace {

using json = nlohmann::json;

const std::set<std::string> sweep_keys = {"apis",      "algorithms", "sizes", "cases",       "params", "warmup",
                                          "warmup_ms", "reps",       "seeds", "min_time_ms", "busy_ms"};

/// The value of `key` as T, or a usage error naming the key and the type it wants.
template <class T> T get(const std::string& origin, const json& j, const std::string& key, const char* wanted) {
  try {
    return j.at(key).get<T>();
  } catch (const json::exception&) {
    throw usage_error("suite " + origin + ": \"" + key + "\" must be " + wanted + " (got " + j.at(key).dump() + ")");
  }
}

int integer_in(const std::string& origin, const json& j, const std::string& key, int lo, int hi) {
  const json& v = j.at(key);
  if (!v.is_number_integer() || v.get<long long>() < lo || v.get<long long>() > hi)
    throw usage_error("suite " + origin + ": \"" + key + "\" must be an integer in " + std::to_string(lo) + "…" +
                      std::to_string(hi) + " (got " + v.dump() + ")");
  return v.get<int>();
}

/// Reads the sweep's keys present in `j` into `s` (the top level, or a quick section over it).
void read_sweep(const std::string& origin, const json& j, suite& s) {
  using strings = std::vector<std::string>;
  const char* list = "a list of strings";
  if (j.contains("apis")) s.apis = get<strings>(origin, j, "apis", list);
  if (j.contains("algorithms")) s.algorithms = get<strings>(origin, j, "algorithms", list);
  if (j.contains("sizes")) s.sizes = get<strings>(origin, j, "sizes", list);
  if (j.contains("cases")) s.cases = get<strings>(origin, j, "cases", list);
  if (j.contains("params")) {
    using grid = std::map<std::string, std::vector<std::string>>;
    const char* wanted = "{\"api/name\": {\"key\": [\"value\", …]}} or {\"api/name\": [{…}, {…}]}";
    const json& all = j.at("params");
    if (!all.is_object())
      throw usage_error("suite " + origin + ": \"params\" must be " + wanted + " (got " + all.dump() + ")");
    s.params.clear();
    for (const auto& [name, value] : all.items()) {
      const json one = json{{"params", value}};
      if (value.is_array()) {
        if (value.empty()) throw usage_error("suite " + origin + ": \"params\": \"" + name + "\" lists no grid");
        s.params[name] = get<std::vector<grid>>(origin, one, "params", wanted);
      } else {
        s.params[name] = {get<grid>(origin, one, "params", wanted)};
      }
      for (const auto& g : s.params[name])
        for (const auto& [key, values] : g)
          if (values.empty())
            throw usage_error("suite " + origin + ": \"params\": \"" + name + "\": \"" + key + "\" lists no value");
    }
  }
  if (j.contains("warmup")) s.warmup = integer_in(origin, j, "warmup", 0, 100000);
  if (j.contains("reps")) s.reps = integer_in(origin, j, "reps", 1, 100000);
  if (j.contains("seeds")) s.seeds = integer_in(origin, j, "seeds", 1, 1000);
  for (const auto& [key, value] : {std::pair<const char*, double*>{"warmup_ms", &s.warmup_ms},
                                   {"min_time_ms", &s.min_time_ms},
                                   {"busy_ms", &s.busy_ms}}) {
    if (!j.contains(key)) continue;
    const json& v = j.at(key);
    if (!v.is_number() || !(v.get<double>() >= 0 && v.get<double>() <= 60000))
      throw usage_error("suite " + origin + ": \"" + key + "\" must be a number in 0…60000 (got " + v.dump() + ")");
    *value = v.get<double>();
  }
}

void check_cases(const suite& s) {
  if (s.cases.empty()) throw usage_error("suite " + s.origin + ": \"cases\" is empty: nothing to run");
  for (const auto& c : s.cases)
    if (c.find("{size}") != std::string::npos && s.sizes.empty())
      throw usage_error("suite " + s.origin + ": case \"" + c + "\" uses {size} but \"sizes\" is empty");
}

} // namespace

void check_results_name(const std::string& what, const std::string& name) {
  // The name becomes NAME.jsonl inside --out: it must not choose another folder or hide the file.
  if (name.empty() || name.front() == '.' ||
      name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.") != std::string::npos)
    throw usage_error(what + " must be a plain file name (letters, digits, _ - .; not starting with .), got \"" + name +
                      "\"");
  // NAME.journal.jsonl, NAME.seeds.jsonl and NAME.status.json sit beside NAME.jsonl: a name ending
  // so would be another run's journal or summary, and that run would replace or remove it.
  for (const char* kept_beside : {".journal", ".seeds", ".status"})
    if (name.ends_with(kept_beside))
      throw usage_error(what + " \"" + name + "\" ends in " + kept_beside +
                        ", as the files winnow keeps beside results do");
  // The longest file made of it (a temporary ".NAME.status.json.XXXXXX") must fit a file name.
  if (name.size() > 200)
    throw usage_error(what + " is " + std::to_string(name.size()) + " characters long; at most 200");
}

suite parse_suite(const std::string& origin, const std::string& text) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) { throw usage_error("suite " + origin + ": not JSON: " + e.what()); }
  if (!j.is_object()) throw usage_error("suite " + origin + ": must be a JSON object");
  for (const auto& [key, value] : j.items())
    if (!sweep_keys.contains(key) && key != "name" && key != "description" && key != "quick")
      throw usage_error(
          "suite " + origin + ": unknown key \"" + key + "\"" +
          did_you_mean(key, {"name", "description", "apis", "algorithms", "sizes", "cases", "params", "warmup",
                             "warmup_ms", "reps", "seeds", "min_time_ms", "busy_ms", "quick"}) +
          " (known: name, description, apis, algorithms, sizes, cases, params, warmup, warmup_ms, reps, seeds, "
          "min_time_ms, busy_ms, quick)");
  suite s;
  s.origin = origin;
  if (!j.contains("name")) throw usage_error("suite " + origin + ": \"name\" is missing");
  s.name = get<std::string>(origin, j, "name", "a string");
  check_results_name("suite " + origin + ": \"name\"", s.name);
  if (j.contains("description")) s.description = get<std::string>(origin, j, "description", "a string");
  if (!j.contains("cases")) throw usage_error("suite " + origin + ": \"cases\" is missing");
  read_sweep(origin, j, s);
  check_cases(s);
  if (j.contains("quick")) {
    const json& q = j.at("quick");
    if (!q.is_object()) throw usage_error("suite " + origin + ": \"quick\" must be an object of sweep keys");
    for (const auto& [key, value] : q.items())
      if (!sweep_keys.contains(key))
        throw usage_error("suite " + origin + ": unknown key \"quick." + key + "\"" +
                          did_you_mean(key, {sweep_keys.begin(), sweep_keys.end()}) +
                          " (a quick section replaces sweep keys only)");
    suite probe = s;
    read_sweep(origin + " (quick)", q, probe); // checked now, not when --quick is first used
    check_cases(probe);
    s.quick_json = q.dump();
  }
  return s;
}

std::vector<std::string> suite::expanded_cases() const {
  std::vector<std::string> out;
  for (const auto& c : cases)
    if (c.find("{size}") == std::string::npos) out.push_back(c);
  for (const auto& size : sizes)
    for (const auto& c : cases)
      if (auto at = c.find("{size}"); at != std::string::npos) out.push_back(std::string(c).replace(at, 6, size));
  return out;
}

suite suite::quick() const {
  if (!quick_json) throw usage_error("suite " + origin + " has no \"quick\" section (--quick)");
  suite q = *this;
  read_sweep(origin + " (quick)", json::parse(*quick_json), q);
  q.quick_json.reset();
  return q;
}

} // namespace winnow::cli
