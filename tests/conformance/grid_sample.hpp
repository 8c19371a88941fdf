// Which parameter sets of an algorithm's grid a suite runs on which of its cases, shared by the
// conformance grid and the shader-era loop-bound check.
//
// WINNOW_CONFORMANCE=sample (the default; CI): the algorithm's default parameters on every case, plus
// a rotating share of the rest of the grid, so that every set of the grid runs on some case in every
// run and on another case the next day (WINNOW_CONFORMANCE_ROTATION, default the day number).
// WINNOW_CONFORMANCE=full: the whole product of grid and cases (the GPU machine).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "winnow/algorithm.hpp"
#include "winnow/error.hpp"
#include "winnow/settings.hpp"

namespace winnow::conformance {

inline bool full_grid() {
  const char* v = std::getenv("WINNOW_CONFORMANCE");
  if (!v || !*v || std::string(v) == "sample") return false;
  if (std::string(v) == "full") return true;
  throw usage_error("environment: WINNOW_CONFORMANCE='" + std::string(v) + "' is not accepted (sample or full)");
}

inline std::size_t rotation() {
  const auto days = std::chrono::duration_cast<std::chrono::days>(std::chrono::system_clock::now().time_since_epoch());
  return static_cast<std::size_t>(env_integer("WINNOW_CONFORMANCE_ROTATION", 0, 1'000'000'000).value_or(days.count()));
}

/// The sets of `grid` (a sweep of `info`'s axes) to run on case `c` of `cases`: all of them in the
/// full grid; else the defaults and the case's share of the rotation, each set once.
inline std::vector<params> sets_for_case(const algorithm_info& info, const std::vector<params>& grid, std::size_t c,
                                         std::size_t cases) {
  if (full_grid()) return grid;
  std::vector<params> chosen{resolve_params(info, {}).texts()};
  std::vector<params> resolved = chosen; // what each chosen set resolves to, to run none twice
  if (grid.empty()) return chosen;
  const std::size_t per_case = (grid.size() + cases - 1) / cases, r = rotation();
  for (std::size_t j = 0; j < per_case; ++j) {
    const params& p = grid[(c * per_case + j + r) % grid.size()];
    params full = resolve_params(info, p).texts();
    if (std::find(resolved.begin(), resolved.end(), full) != resolved.end()) continue;
    resolved.push_back(std::move(full));
    chosen.push_back(p);
  }
  return chosen;
}

} // namespace winnow::conformance
