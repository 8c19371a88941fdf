// What the registry's conformance grid leaves out for the vk algorithms: every concatenation at the
// large blocks, ballot's range lengths, the phases marked, and the device in every record. The pass
// structure is the shared plan's (tests/shader_era, tests/conformance/shader_era_test.cpp).
#include <gtest/gtest.h>

#include "winnow/backends.hpp"
#include "winnow/corpus.hpp"
#include "winnow/harness.hpp"
#include "winnow/vulkan/device.hpp"

namespace winnow::vk {
namespace {

#define WINNOW_REQUIRE_VK()                                                                                            \
  if (auto reason = unavailable_reason()) GTEST_SKIP() << *reason

prepared_case make_case(const std::string& spec) {
  prepared_case c = prepare_case(generate(spec));
  return c;
}

record run(const std::string& algo, const params& p, const prepared_case& c) {
  const registry& reg = all_backends();
  return run_case(reg, reg.find(algo), p, c, {0, 2, false});
}

TEST(vk_algorithms, block_sizes_and_concatenations_outside_the_sweep) {
  WINNOW_REQUIRE_VK();
  for (const char* spec : {"all:1", "none:1000", "single:3000", "uniform:100003:p=0.5",
                           "runs:65537:valid=1:invalid=300", "removal:20000:k=0.3:r=0.5", "alternating:5001"}) {
    const prepared_case c = make_case(spec);
    for (const char* algo : {"vk/horn", "vk/jj", "vk/rlz", "vk/bt"})
      for (const char* block : {"128", "2048"})
        for (const char* concat : {"copy", "search"}) {
          const params p{{"block", block}, {"concat", concat}};
          const record r = run(algo, p, c);
          EXPECT_TRUE(r.verified) << algo << " " << winnow::to_string(p) << " " << spec << ": " << r.mismatch;
          EXPECT_EQ(r.kept, c.expected.size());
        }
  }
}

TEST(vk_algorithms, phases_are_named_as_gl_and_timed_on_the_device) {
  WINNOW_REQUIRE_VK();
  const prepared_case c = make_case("removal:100003:k=0.3");
  const std::map<std::string, std::vector<std::string>> expected = {
      {"vk/horn", {"mark", "scan", "search", "count", "concat"}},
      {"vk/jj", {"mark", "scan", "search", "count", "concat"}},
      {"vk/rlz", {"mark", "runs", "scan", "search", "count", "concat"}},
      {"vk/bt", {"mark", "reduce", "traverse", "count", "concat"}},
      {"vk/ballot", {"mark", "count", "scan", "move"}}};
  for (const auto& [algo, names] : expected) {
    const record r = run(algo, {}, c);
    ASSERT_TRUE(r.verified) << algo << ": " << r.mismatch;
    std::vector<std::string> got;
    for (const auto& ph : r.phases) {
      got.push_back(ph.name);
      EXPECT_GT(ph.ns.median, 0.0) << algo << " " << ph.name;
    }
    EXPECT_EQ(got, names) << algo;
    EXPECT_EQ(r.device, device::get().properties().name);
    EXPECT_NE(r.driver.find("Vulkan 1."), std::string::npos) << r.driver;
    EXPECT_GT(r.bytes_read, 0u);
  }
}

TEST(vk_algorithms, ballot_for_every_element_size_and_range_length) {
  WINNOW_REQUIRE_VK();
  for (const char* spec :
       {"all:0", "single:1", "uniform:100003:p=0.5", "runs:65537:valid=300:invalid=1", "all:70001"}) {
    const prepared_case c = make_case(spec);
    for (const char* bits : {"32", "64", "128"})
      for (const char* items : {"4", "256"}) {
        const params p{{"bits", bits}, {"items", items}};
        const record r = run("vk/ballot", p, c);
        EXPECT_TRUE(r.verified) << winnow::to_string(p) << " " << spec << ": " << r.mismatch;
        EXPECT_EQ(r.launches, 3u);
      }
  }
}

} // namespace
} // namespace winnow::vk
