#include "winnow/algorithm.hpp"

#include <algorithm>
#include <charconv>

#include "winnow/error.hpp"

namespace winnow {
namespace {

std::string accepted(const param_axis& a) {
  if (a.choices_only) {
    std::string s;
    for (const auto& v : a.choices()) s += (s.empty() ? "" : " | ") + v;
    return s;
  }
  return std::string(a.power_of_two ? "a power of two" : "an integer") + " in [" + std::to_string(a.min) + ", " +
         std::to_string(a.max) + "]";
}

bool valid_value(const param_axis& a, const std::string& v) {
  if (a.choices_only) return std::find(a.choices().begin(), a.choices().end(), v) != a.choices().end();
  std::int64_t x = 0;
  auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
  if (ec != std::errc() || end != v.data() + v.size() || x < a.min || x > a.max) return false;
  return !a.power_of_two || (x > 0 && (x & (x - 1)) == 0);
}

} // namespace

params resolve_params(const algorithm_info& info, const params& given) {
  params out;
  for (const auto& [key, value] : given) {
    auto axis = std::find_if(info.axes.begin(), info.axes.end(), [&](const param_axis& a) { return a.key == key; });
    if (axis == info.axes.end()) {
      std::string keys;
      for (const auto& a : info.axes) keys += (keys.empty() ? "" : ", ") + a.key;
      throw usage_error(info.full_name() + ": unknown parameter '" + key + "'" +
                        (keys.empty() ? " (it takes none)" : " (accepted: " + keys + ")"));
    }
    if (!valid_value(*axis, value))
      throw usage_error(info.full_name() + ": " + key + "='" + value + "' is not accepted (" + key + ": " +
                        accepted(*axis) + ")");
    out[key] = value;
  }
  for (const auto& a : info.axes) out.emplace(a.key, a.default_value);
  return out;
}

std::vector<params> sweep(const algorithm_info& info, const std::vector<std::string>& except) {
  std::vector<params> grid{{}};
  for (const auto& axis : info.axes) {
    if (std::find(except.begin(), except.end(), axis.key) != except.end()) continue;
    std::vector<params> next;
    for (const auto& g : grid)
      for (const auto& v : axis.values) {
        params p = g;
        p[axis.key] = v;
        next.push_back(p);
      }
    grid = std::move(next);
  }
  return grid;
}

std::pair<std::string, std::string> parse_param(const std::string& text) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    throw usage_error("--param '" + text + "' is not key=value (e.g. --param block=128)");
  return {text.substr(0, eq), text.substr(eq + 1)};
}

std::string to_string(const params& p) {
  std::string s;
  for (const auto& [k, v] : p) s += (s.empty() ? "" : ",") + k + "=" + v;
  return s;
}

} // namespace winnow
