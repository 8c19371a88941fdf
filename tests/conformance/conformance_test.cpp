// The conformance suite: every algorithm in the registry × its parameter grid × the case list,
// checked against the CPU reference (stable: exactly; unstable: as a multiset; the count the
// algorithm produced apart from the contents; out of place: input unchanged). A backend is covered
// by registering.
//
// The grid is sampled in CI (every set on some case, the defaults on every case) and whole on the GPU
// machine: grid_sample.hpp.
#include <gtest/gtest.h>

#include <map>

#include "grid_sample.hpp"
#include "winnow/backends.hpp"
#include "winnow/corpus.hpp"
#include "winnow/harness.hpp"

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

std::vector<config> all_configs() {
  std::vector<config> out;
  for (const auto& b : all_backends().backends())
    for (const auto& e : b.algorithms) {
      const std::vector<params> grid = sweep(e.info);
      for (std::size_t c = 0; c < cases.size(); ++c)
        for (const auto& p : conformance::sets_for_case(e.info, grid, c, cases.size()))
          out.push_back({&e, p, cases[c]});
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
    prepared_case c = prepare_case(generate(spec));
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
