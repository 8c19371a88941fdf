#include "suite.hpp"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "embedded.hpp"
#include "winnow/error.hpp"

namespace winnow::cli {
namespace {

suite parse(const std::string& origin, const std::string& text) {
  try {
    const auto j = nlohmann::json::parse(text);
    suite s;
    s.name = j.at("name").get<std::string>();
    s.description = j.value("description", "");
    s.apis = j.value("apis", std::vector<std::string>{});
    s.algorithms = j.value("algorithms", std::vector<std::string>{});
    s.sizes = j.value("sizes", std::vector<std::string>{});
    s.cases = j.at("cases").get<std::vector<std::string>>();
    s.params = j.value("params", decltype(s.params){});
    s.warmup = j.value("warmup", 1);
    s.reps = j.value("reps", 5);
    s.warmup_ms = j.value("warmup_ms", 200.0);
    return s;
  } catch (const nlohmann::json::exception& e) {
    throw usage_error("suite " + origin + ": " + e.what());
  }
}

} // namespace

std::vector<std::string> suite::expanded_cases() const {
  std::vector<std::string> out;
  for (const auto& c : cases)
    if (c.find("{size}") == std::string::npos) out.push_back(c);
  for (const auto& size : sizes)
    for (const auto& c : cases)
      if (auto at = c.find("{size}"); at != std::string::npos) out.push_back(std::string(c).replace(at, 6, size));
  return out;
}

std::vector<suite> embedded_suite_list() {
  std::vector<suite> out;
  for (const auto& [name, text] : embedded_suites()) out.push_back(parse(name, text));
  return out;
}

suite load_suite(const std::string& name_or_path) {
  for (const auto& [name, text] : embedded_suites())
    if (name == name_or_path) return parse(name, text);
  if (name_or_path.ends_with(".json")) {
    std::ifstream in(name_or_path);
    if (!in) throw usage_error("suite file " + name_or_path + ": cannot open");
    std::stringstream ss;
    ss << in.rdbuf();
    return parse(name_or_path, ss.str());
  }
  std::string known;
  for (const auto& [name, text] : embedded_suites()) known += (known.empty() ? "" : ", ") + name;
  throw usage_error("unknown suite '" + name_or_path + "' (known: " + known + "; or a path to a .json file)");
}

} // namespace winnow::cli
