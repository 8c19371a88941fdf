#include "step_time.hpp"

#include <algorithm>
#include <fstream>

namespace winnow::cli {

nlohmann::ordered_json step_time(const std::filesystem::path& jsonl, double seconds) {
  double timed = 0, warmup = 0, make = 0, upload = 0, check = 0; // [ms]
  std::ifstream in(jsonl);
  for (std::string line; std::getline(in, line);) {
    const auto j = nlohmann::json::parse(line, nullptr, false);
    if (!j.is_object()) continue;
    const auto number = [](const nlohmann::json& o, const char* key) {
      return o.is_object() && o.contains(key) && o[key].is_number() ? o[key].get<double>() : 0.0;
    };
    const double warm = number(j, "warmup_ran_ms");
    warmup += warm;
    if (j.contains("host_ms") && j["host_ms"].is_object()) {
      const auto& h = j["host_ms"];
      make += number(h, "make");
      upload += number(h, "prepare");
      check += number(h, "result") + number(h, "check");
      timed += std::max(0.0, number(h, "runs") - warm);
    } else if (j.contains("wall")) {
      timed += number(j["wall"], "mean_ns") * number(j, "reps") / 1e6;
    }
  }
  const double known = (timed + warmup + make + upload + check) / 1e3;
  return {{"timed", timed / 1e3},   {"warmup", warmup / 1e3}, {"make", make / 1e3},
          {"upload", upload / 1e3}, {"check", check / 1e3},   {"other", std::max(0.0, seconds - known)}};
}

} // namespace winnow::cli
