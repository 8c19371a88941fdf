#include "record_check.hpp"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "winnow/corpus.hpp"
#include "winnow/error.hpp"

namespace winnow::cli {
namespace {

void check_stats(const std::string& what, const stats& s, bool positive) {
  for (const double v : {s.median, s.min, s.max, s.mean, s.stddev, s.q1, s.q3})
    if (!std::isfinite(v) || v < 0)
      throw error("\"" + what + "\" holds " + num(v) + ": a time must be a finite number ≥ 0");
  if (positive && !(s.min > 0)) throw error("\"" + what + "\": min_ns " + num(s.min) + " must be more than 0");
  if (!(s.min <= s.q1 && s.q1 <= s.median && s.median <= s.q3 && s.q3 <= s.max))
    throw error("\"" + what + "\": min ≤ q1 ≤ median ≤ q3 ≤ max does not hold (" + num(s.min) + ", " + num(s.q1) +
                ", " + num(s.median) + ", " + num(s.q3) + ", " + num(s.max) + ")");
  if (!(s.min <= s.mean && s.mean <= s.max))
    throw error("\"" + what + "\": the mean " + num(s.mean) + " is outside min…max (" + num(s.min) + "…" + num(s.max) +
                ")");
}

} // namespace

void check_record(const record& r, const registry& reg) {
  if (r.algorithm.rfind('/') == std::string::npos || r.algorithm.substr(0, r.algorithm.find('/')) != r.api)
    throw error("\"algorithm\" " + r.algorithm + " is not of \"api\" " + r.api);
  const bool built = std::any_of(reg.backends().begin(), reg.backends().end(),
                                 [&](const backend& b) { return b.api == r.api && !b.algorithms.empty(); });
  if (built) {
    const algorithm_entry* entry = nullptr;
    try {
      entry = &reg.find(r.algorithm);
    } catch (const usage_error&) {
      throw error("\"algorithm\" " + r.algorithm + " is no algorithm of this build's " + r.api + " backend");
    }
    params resolved;
    try {
      resolved = resolve_params(entry->info, r.parameters).texts();
    } catch (const usage_error& e) { throw error("\"params\" " + to_string(r.parameters) + ": " + e.what()); }
    if (resolved != r.parameters)
      throw error("\"params\" " + to_string(r.parameters) + " are not " + r.algorithm + "'s every parameter (" +
                  to_string(resolved) + ")");
  }
  case_spec spec;
  try {
    spec = parse_spec(r.spec);
  } catch (const usage_error& e) { throw error("\"case\" " + r.spec + ": " + e.what()); }
  if (to_string(spec) != r.spec) throw error("\"case\" " + r.spec + " is not canonical (" + to_string(spec) + ")");
  // A file: case's n is the image's, known only from the file.
  if (spec.family != "file" && r.n != spec.n + gains_of(spec))
    throw error("\"n\" " + std::to_string(r.n) + " is not the case's " + std::to_string(spec.n + gains_of(spec)));
  if (r.valid > r.n || r.kept > r.n)
    throw error("\"valid\" " + std::to_string(r.valid) + " or \"kept\" " + std::to_string(r.kept) + " exceeds \"n\" " +
                std::to_string(r.n));
  if (r.verified && r.kept != r.valid)
    throw error("verified, but \"kept\" " + std::to_string(r.kept) + " is not \"valid\" " + std::to_string(r.valid));
  if (r.warmup < 0 || r.reps < 0 || r.warmup_runs < 0)
    throw error("\"warmup\", \"warmup_runs\" and \"reps\" must not be negative");
  for (const auto& [name, v] : {std::pair<const char*, double>{"warmup_ms", r.warmup_ns},
                                {"warmup_ran_ms", r.warmup_ran_ns},
                                {"busy_ms", r.busy_ns},
                                {"max_noise", r.max_noise},
                                {"min_time_ms", r.min_time_ns},
                                {"timeout_s", r.timeout_s}})
    if (!std::isfinite(v) || v < 0) throw error(std::string("\"") + name + "\" must be a finite number ≥ 0");
  if (r.skipped || !r.verified) return; // nothing was measured, or compare and --resume leave it out
  if (r.reps < 1) throw error("measured, but \"reps\" is " + std::to_string(r.reps));
  check_stats("total", r.total, true);
  check_stats("wall", r.wall, true);
  for (const auto& p : r.phases) check_stats("phases: " + p.name, p.ns, false);
}

std::string jsonl_kind(const std::string& first_line) {
  const auto j = nlohmann::json::parse(first_line, nullptr, false);
  if (!j.is_object()) return "";
  if (j.contains("seeds") && j.contains("failed") && !j.contains("winnow")) return "seed summaries";
  if (j.contains("value") && j.contains("unit") && !j.contains("schema")) return "calibration";
  if (j.contains("schema") && j.contains("winnow")) return "records";
  return "";
}

} // namespace winnow::cli
