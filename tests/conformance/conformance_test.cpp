// The conformance suite: every algorithm in the registry × its parameter grid × the case list,
// checked against the CPU reference (stable: exactly; unstable: as a multiset; the count the
// algorithm produced apart from the contents; out of place: input unchanged). A backend is covered
// by registering.
//
// The grid is sampled (WINNOW_CONFORMANCE=sample, the default; CI): every algorithm runs its default
// parameters on every case, plus a rotating share of the rest of its grid — every set of the grid on
// some case in every run, each set on another case the next day (WINNOW_CONFORMANCE_ROTATION, default
// the day number). WINNOW_CONFORMANCE=full runs the whole product (the GPU machine).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <map>

#include "winnow/backends.hpp"
#include "winnow/corpus.hpp"
#include "winnow/error.hpp"
#include "winnow/harness.hpp"
#include "winnow/reference.hpp"
#include "winnow/settings.hpp"

namespace winnow {
namespace {

const std::vector<std::string>& cases = conformance_cases();

struct config {
  const algorithm_entry* entry;
  params p;
  std::string spec;
};

void PrintTo(const config& c, std::ostream* os) {
  *os << c.entry->info.full_name() << " " << to_string(c.p) << " " << c.spec;
}

bool full_grid() {
  const char* v = std::getenv("WINNOW_CONFORMANCE");
  if (!v || !*v || std::string(v) == "sample") return false;
  if (std::string(v) == "full") return true;
  throw usage_error("environment: WINNOW_CONFORMANCE='" + std::string(v) + "' is not accepted (sample or full)");
}

std::int64_t rotation() {
  const auto days = std::chrono::duration_cast<std::chrono::days>(std::chrono::system_clock::now().time_since_epoch());
  return env_integer("WINNOW_CONFORMANCE_ROTATION", 0, 1'000'000'000).value_or(days.count());
}

std::vector<config> all_configs() {
  const bool full = full_grid();
  const auto r = static_cast<std::size_t>(rotation());
  std::vector<config> out;
  for (const auto& b : all_backends().backends())
    for (const auto& e : b.algorithms) {
      const std::vector<params> grid = sweep(e.info);
      const params defaults = resolve_params(e.info, {}).texts();
      const std::size_t per_case = (grid.size() + cases.size() - 1) / cases.size();
      for (std::size_t c = 0; c < cases.size(); ++c) {
        if (full) {
          for (const auto& p : grid) out.push_back({&e, p, cases[c]});
          continue;
        }
        std::vector<params> chosen{defaults};
        for (std::size_t j = 0; j < per_case; ++j) {
          const params& p = grid[(c * per_case + j + r) % grid.size()];
          if (std::find(chosen.begin(), chosen.end(), resolve_params(e.info, p).texts()) == chosen.end())
            chosen.push_back(p);
        }
        for (const auto& p : chosen) out.push_back({&e, p, cases[c]});
      }
    }
  return out;
}

std::string test_name(const testing::TestParamInfo<config>& info) {
  std::string s = info.param.entry->info.full_name() + "__" + to_string(info.param.p) + "__" + info.param.spec;
  for (char& ch : s)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return s;
}

const prepared_case& prepared(const std::string& spec) {
  static std::map<std::string, prepared_case> cache;
  auto it = cache.find(spec);
  if (it == cache.end()) {
    prepared_case c{generate(spec), {}};
    c.expected = reference_compact(c.w);
    it = cache.emplace(spec, std::move(c)).first;
  }
  return it->second;
}

class conformance : public testing::TestWithParam<config> {};

TEST_P(conformance, matches_reference) {
  const config& c = GetParam();
  const registry& reg = all_backends();
  if (auto reason = reg.unavailable_reason(c.entry->info.api)) GTEST_SKIP() << c.entry->info.api << ": " << *reason;
  // Two timed repetitions: the second proves reset() restores what the first consumed.
  const record r = run_case(reg, *c.entry, c.p, prepared(c.spec), {0, 2, false});
  if (r.skipped) GTEST_SKIP() << *r.skipped;
  EXPECT_TRUE(r.verified) << r.mismatch;
  EXPECT_EQ(r.kept, prepared(c.spec).expected.size()) << "the count the algorithm produced";
  EXPECT_FALSE(r.phases.empty()) << "no phase was marked on the timer";
}

INSTANTIATE_TEST_SUITE_P(registry, conformance, testing::ValuesIn(all_configs()), test_name);

} // namespace
} // namespace winnow
