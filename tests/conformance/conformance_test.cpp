// The conformance suite: every algorithm in the registry × every value of its parameter axes × the
// case list, checked against the CPU reference (stable: exactly; unstable: as a multiset; count
// apart from contents; out of place: input unchanged). A backend is covered by registering.
#include <gtest/gtest.h>

#include <map>

#include "winnow/backends.hpp"
#include "winnow/corpus.hpp"
#include "winnow/harness.hpp"
#include "winnow/reference.hpp"

namespace winnow {
namespace {

// Edge cases, sizes that are no multiple of any block or tile (100003 is prime), every corpus
// family, the negatives and images at 256K, the removal-list extremes (k = 0, 1, n-1, n; all of R
// inside or outside the red zone) and one large size.
const std::vector<std::string> cases = {
    "all:0", "all:1", "none:1", "single:1", "all:1000", "none:1000", "single:1000", "single:1000:at=0",
    "alternating:1001", "uniform:100003:p=0.02", "uniform:100003:p=0.1", "uniform:100003:p=0.5",
    "uniform:100003:p=0.9", "runs:100003", "runs:65537:valid=1:invalid=300", "runs:65537:valid=300:invalid=1",
    "brownian:100003:p=0.3", "finger:256K", "i_finger:256K", "hand:256K", "i_hand:256K", "bunny:256K",
    "i_bunny:256K", "finger:100003", "removal:100003:k=0", "removal:100003:k=0.02", "removal:100003:k=0.4:r=0",
    "removal:100003:k=0.5:r=1", "removal:100003:k=0.3:r=0.5", "removal:1000:k=0.001", "removal:1000:k=0.999",
    "removal:1000:k=1", "uniform:4M:p=0.5"};

struct config {
  const algorithm_entry* entry;
  params p;
  std::string spec;
};

void PrintTo(const config& c, std::ostream* os) { *os << c.entry->info.full_name() << " " << to_string(c.p) << " " << c.spec; }

std::vector<config> all_configs() {
  std::vector<config> out;
  for (const auto& b : all_backends().backends())
    for (const auto& e : b.algorithms)
      for (const auto& p : sweep(e.info))
        for (const auto& c : cases) out.push_back({&e, p, c});
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
  EXPECT_EQ(r.valid, prepared(c.spec).expected.size());
  EXPECT_FALSE(r.phases.empty()) << "no phase was marked on the timer";
}

INSTANTIATE_TEST_SUITE_P(registry, conformance, testing::ValuesIn(all_configs()), test_name);

} // namespace
} // namespace winnow
