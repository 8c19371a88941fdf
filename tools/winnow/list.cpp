#include <algorithm>
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "suite.hpp"
#include "table.hpp"
#include "winnow/backends.hpp"
#include "winnow/corpus.hpp"

namespace winnow::cli {
namespace {

std::string describe(const param_axis& a) {
  if (a.choices_only) {
    std::string s;
    for (const auto& v : a.choices()) s += (s.empty() ? "" : " | ") + v;
    return a.free_text ? s + " | text" : s;
  }
  std::string s = std::string(a.power_of_two ? "power of two" : "integer") + " in [" + std::to_string(a.min) + ", " +
                  std::to_string(a.max) + "]";
  for (const auto& w : a.accepted) s += " | " + w; // words beside the integers, e.g. auto
  return s;
}

/// The backends `--api` asks for (all when none), each api checked (usage_error naming the known ones).
std::vector<const backend*> selected(const registry& reg, const std::vector<std::string>& apis) {
  std::vector<const backend*> out;
  for (const auto& api : apis) (void)reg.find_backend(api);
  for (const auto& b : reg.backends())
    if (apis.empty() || std::find(apis.begin(), apis.end(), b.api) != apis.end()) out.push_back(&b);
  return out;
}

int list_json(const std::vector<const backend*>& chosen, bool whole) {
  const registry& reg = all_backends();
  nlohmann::ordered_json backends = nlohmann::ordered_json::array();
  for (const backend* bp : chosen) {
    const backend& b = *bp;
    nlohmann::ordered_json j{{"api", b.api}, {"summary", b.summary}};
    const auto reason = reg.unavailable_reason(b.api);
    j["available"] = !reason;
    j["reason"] = reason ? nlohmann::ordered_json(*reason) : nlohmann::ordered_json(nullptr);
    if (!reason) {
      const auto dev = reg.device(b.api);
      j["device"] = dev.device;
      j["driver"] = dev.driver;
    }
    nlohmann::ordered_json algorithms = nlohmann::ordered_json::array();
    for (const auto& a : b.algorithms) {
      nlohmann::ordered_json params = nlohmann::ordered_json::object();
      for (const auto& ax : a.info.axes) params[ax.key] = {{"default", ax.default_value}, {"accepts", describe(ax)}};
      algorithms.push_back({{"name", a.info.full_name()},
                            {"stable", a.info.stable},
                            {"in_place", a.info.in_place},
                            {"input", a.info.input == input_kind::predicate ? "predicate" : "removal list"},
                            {"params", params}});
    }
    j["algorithms"] = algorithms;
    backends.push_back(j);
  }
  nlohmann::ordered_json suites = nlohmann::ordered_json::array();
  if (whole)
    for (const auto& s : embedded_suite_list()) suites.push_back({{"name", s.name}, {"description", s.description}});
  std::cout << nlohmann::ordered_json{{"backends", backends}, {"suites", suites}}.dump(2) << "\n";
  return 0;
}

} // namespace

int list_command(bool as_json, const std::vector<std::string>& apis) {
  const registry& reg = all_backends();
  const auto chosen = selected(reg, apis);
  // --api narrows the list to those backends' algorithms; suites and corpus families are api-free.
  if (as_json) return list_json(chosen, apis.empty());
  for (const backend* bp : chosen) {
    const backend& b = *bp;
    const auto reason = reg.unavailable_reason(b.api);
    std::cout << b.api << " — " << b.summary << "\n  ";
    if (reason) std::cout << "unavailable: " << *reason << "\n";
    else {
      const auto dev = reg.device(b.api);
      std::cout << "available: " << dev.device << " (" << dev.driver << ")\n";
    }
    for (const auto& a : b.algorithms) {
      const auto& i = a.info;
      std::cout << "\n  " << i.full_name() << "  [" << (i.stable ? "stable" : "unstable") << ", "
                << (i.in_place ? "in place" : "out of place") << ", "
                << (i.input == input_kind::predicate ? "predicate" : "removal list") << "]\n    " << i.summary << "\n";
      if (i.axes.empty()) continue;
      table t({"    param", "default", "accepts", ""});
      for (const auto& ax : i.axes) t.add({"    " + ax.key, ax.default_value, describe(ax), ax.help});
      std::cout << t.str();
    }
    std::cout << "\n";
  }
  if (!apis.empty()) return 0;
  std::cout << "suites (winnow bench --suite NAME):\n";
  for (const auto& s : embedded_suite_list()) std::cout << "  " << s.name << " — " << s.description << "\n";
  std::cout << "\ncorpus families (family[:size][:key=value...]):\n";
  for (const auto& f : families()) {
    std::cout << "  " << f.name << " — " << f.help << "\n";
    for (const auto& k : f.keys)
      std::cout << "      " << k.name << "=" << (k.default_value.empty() ? "…" : k.default_value) << "  " << k.help
                << "\n";
  }
  return 0;
}

} // namespace winnow::cli
