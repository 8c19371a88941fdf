#include "winnow/algorithm.hpp"

#include <algorithm>
#include <charconv>

#include "winnow/error.hpp"

namespace winnow {
namespace {

std::string describe_integers(const param_axis& a) {
  std::string s = std::string(a.power_of_two ? "a power of two" : "an integer") + " in [" + std::to_string(a.min) +
                  ", " + std::to_string(a.max) + "]";
  for (const auto& w : a.accepted) s += " | " + w;
  return s;
}

std::string accepted(const param_axis& a) {
  if (a.choices_only) {
    std::string s;
    for (const auto& v : a.choices()) s += (s.empty() ? "" : " | ") + v;
    return a.free_text ? s + " | any text without ','" : s;
  }
  return describe_integers(a);
}

bool is_word(const param_axis& a, const std::string& v) {
  return std::find(a.accepted.begin(), a.accepted.end(), v) != a.accepted.end();
}

bool valid_value(const param_axis& a, const std::string& v) {
  if (a.free_text) return !v.empty() && v.find(',') == std::string::npos;
  if (a.choices_only) return std::find(a.choices().begin(), a.choices().end(), v) != a.choices().end();
  if (is_word(a, v)) return true;
  std::int64_t x = 0;
  auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
  if (ec != std::errc() || end != v.data() + v.size() || x < a.min || x > a.max) return false;
  return !a.power_of_two || (x > 0 && (x & (x - 1)) == 0);
}

} // namespace

param_axis choice_axis(std::string key, std::string help, std::string default_value, std::vector<std::string> sweep,
                       std::vector<std::string> accepted) {
  return {.key = std::move(key),
          .help = std::move(help),
          .default_value = std::move(default_value),
          .values = std::move(sweep),
          .choices_only = true,
          .accepted = std::move(accepted)};
}

param_axis integer_axis(std::string key, std::string help, std::string default_value, std::vector<std::string> sweep,
                        std::int64_t min, std::int64_t max, bool power_of_two, std::vector<std::string> words) {
  return {.key = std::move(key),
          .help = std::move(help),
          .default_value = std::move(default_value),
          .values = std::move(sweep),
          .choices_only = false,
          .min = min,
          .max = max,
          .power_of_two = power_of_two,
          .accepted = std::move(words)};
}

param_axis text_axis(std::string key, std::string help, std::string default_value, std::vector<std::string> sweep) {
  param_axis a = choice_axis(std::move(key), std::move(help), std::move(default_value), std::move(sweep));
  a.free_text = true;
  return a;
}

param_axis on_off_axis(std::string key, std::string help, std::string default_value) {
  return choice_axis(std::move(key), std::move(help), std::move(default_value), {"off", "on"});
}

std::int64_t param_set::integer(std::string_view key) const {
  const auto it = m_numbers.find(key);
  if (it == m_numbers.end()) {
    const auto word = m_text.find(std::string(key));
    if (word != m_text.end())
      throw error("winnow: " + std::string(key) + "='" + word->second +
                  "' is a word, not a number (the backend asks for the text first)");
    throw error("winnow: '" + std::string(key) + "' is not an integer parameter of this algorithm");
  }
  return it->second;
}

const std::string& param_set::text(std::string_view key) const {
  const auto it = m_text.find(std::string(key));
  if (it == m_text.end()) throw error("winnow: '" + std::string(key) + "' is not a parameter of this algorithm");
  return it->second;
}

void param_set::unmapped(std::string_view key) const {
  throw error("winnow: " + std::string(key) + "='" + text(key) +
              "' has no meaning in this backend (its axis and its code disagree)");
}

param_set resolve_params(const algorithm_info& info, const params& given) {
  params out;
  for (const auto& [key, value] : given) {
    auto axis =
        std::find_if(info.axes.begin(), info.axes.end(), [&k = key](const param_axis& a) { return a.key == k; });
    if (axis == info.axes.end()) {
      std::string keys;
      std::vector<std::string> names;
      for (const auto& a : info.axes) {
        keys += (keys.empty() ? "" : ", ") + a.key;
        names.push_back(a.key);
      }
      throw usage_error(info.full_name() + ": unknown parameter '" + key + "'" + did_you_mean(key, names) +
                        (keys.empty() ? " (it takes none)" : " (accepted: " + keys + ")"));
    }
    if (!valid_value(*axis, value))
      throw usage_error(info.full_name() + ": " + key + "='" + value + "' is not accepted (" + key + ": " +
                        accepted(*axis) + ")");
    out[key] = value;
  }
  param_set set;
  for (const auto& a : info.axes) {
    const std::string& v = out.emplace(a.key, a.default_value).first->second;
    if (!a.choices_only) {
      if (!valid_value(a, v))
        throw error(info.full_name() + ": the default " + a.key + "='" + v + "' is outside its own axis");
      if (!is_word(a, v)) set.m_numbers.emplace(a.key, std::stoll(v));
    }
  }
  set.m_text = std::move(out);
  return set;
}

std::vector<params> product(const std::vector<std::pair<std::string, std::vector<std::string>>>& lists) {
  std::vector<params> grid{{}};
  for (const auto& [key, values] : lists) {
    std::vector<params> next;
    for (const auto& g : grid)
      for (const auto& v : values) {
        params p = g;
        p[key] = v;
        next.push_back(std::move(p));
      }
    grid = std::move(next);
  }
  return grid;
}

std::vector<params> sweep(const algorithm_info& info, const std::vector<std::string>& except) {
  std::vector<std::pair<std::string, std::vector<std::string>>> lists;
  for (const auto& axis : info.axes)
    if (std::find(except.begin(), except.end(), axis.key) == except.end()) lists.emplace_back(axis.key, axis.values);
  return product(lists);
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
