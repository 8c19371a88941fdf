#include <iostream>

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
    return s;
  }
  return std::string(a.power_of_two ? "power of two" : "integer") + " in [" + std::to_string(a.min) + ", " +
         std::to_string(a.max) + "]";
}

} // namespace

int list_command() {
  const registry& reg = all_backends();
  for (const auto& b : reg.backends()) {
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
  std::cout << "suites (winnow bench --suite NAME):\n";
  for (const auto& s : embedded_suite_list()) std::cout << "  " << s.name << " — " << s.description << "\n";
  std::cout << "\ncorpus families (family[:size][:key=value...]):\n";
  for (const auto& f : families()) {
    std::cout << "  " << f.name << " — " << f.help << "\n";
    for (const auto& k : f.keys)
      std::cout << "      " << k.name << "=" << (k.default_value.empty() ? "…" : k.default_value) << "  " << k.help << "\n";
  }
  return 0;
}

} // namespace winnow::cli
