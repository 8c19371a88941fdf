#include <algorithm>
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "results_folder.hpp"
#include "table.hpp"
#include "winnow/backends.hpp"
#include "winnow/error.hpp"
#include "winnow/record.hpp"

namespace winnow::cli {

int calibrate_command(const std::vector<std::string>& apis, const std::string* out) {
  if (out) check_output_file("--out", *out, {".jsonl"});
  const registry& reg = all_backends();
  for (const auto& api : apis)
    if (!reg.find_backend(api).calibrate) throw usage_error("calibrate: " + api + " has no pass model to calibrate");
  std::size_t skipped = 0;
  nlohmann::ordered_json all = nlohmann::ordered_json::array();
  table t({"api", "constant", "value", "unit", "how"});
  for (const auto& b : reg.backends()) {
    if (!apis.empty() && std::find(apis.begin(), apis.end(), b.api) == apis.end()) continue;
    if (!b.calibrate) continue;
    if (auto reason = reg.unavailable_reason(b.api)) {
      std::cerr << b.api << ": not run here: " << *reason << "\n";
      ++skipped;
      continue;
    }
    const device_info dev = reg.device(b.api);
    for (const auto& c : b.calibrate()) {
      char value[32];
      std::snprintf(value, sizeof value, "%.4g", c.value);
      t.add({b.api, c.name, value, c.unit, c.how});
      all.push_back({{"api", b.api},
                     {"device", dev.device},
                     {"driver", dev.driver},
                     {"name", c.name},
                     {"value", c.value},
                     {"unit", c.unit},
                     {"how", c.how}});
    }
  }
  std::cout << t.str();
  if (all.empty()) {
    std::cerr << "calibrate: nothing could be calibrated here" << (out ? "; " + *out + " not written" : "") << "\n";
    return 1;
  }
  if (out) {
    std::string text;
    for (const auto& j : all) text += j.dump() + "\n";
    write_atomically(*out, text);
  }
  return skipped ? 1 : 0;
}

} // namespace winnow::cli
