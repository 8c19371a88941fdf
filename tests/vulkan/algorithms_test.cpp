// What the registry's conformance sweep leaves out for the vk algorithms: the values outside the
// sweep (blocks 128 and 2048, ballot's items), the pass structure (one dispatch per GL pass, so
// the launch counts follow GL's pass model), the phases marked, and the device in every record.
#include <gtest/gtest.h>

#include "winnow/backends.hpp"
#include "winnow/corpus.hpp"
#include "winnow/harness.hpp"
#include "winnow/reference.hpp"
#include "winnow/vulkan/device.hpp"

namespace winnow::vk {
namespace {

#define WINNOW_REQUIRE_VK()                                                                                            \
  if (auto reason = unavailable_reason()) GTEST_SKIP() << *reason

prepared_case make_case(const std::string& spec) {
  prepared_case c{generate(spec), {}};
  c.expected = reference_compact(c.w);
  return c;
}

record run(const std::string& algo, const params& p, const prepared_case& c) {
  const registry& reg = all_backends();
  return run_case(reg, reg.find(algo), p, c, {0, 2, false});
}

// gl/'s pass model (gl/src/scan.cpp, layout.cpp), restated: a segmented scan of log2 seg passes
// (Hillis-Steele; one pass to apply a map when seg = 1) or 2 log2 seg (Blelloch).
std::uint64_t pow2_at_least_sqrt(std::uint64_t n, std::uint64_t w) {
  while (w * w < n) w *= 2;
  return w;
}
std::uint64_t log2u(std::uint64_t v) {
  std::uint64_t l = 0;
  while ((1ull << l) < v) ++l;
  return l;
}
std::uint64_t seg_passes(std::uint64_t seg, bool blelloch) { return blelloch ? 2 * log2u(seg) : log2u(seg); }
/// stream_scan over `count` values: rows, then (more than one row) gather + totals + finish.
std::uint64_t stream_scan_passes(std::uint64_t count, bool blelloch) {
  const std::uint64_t w = pow2_at_least_sqrt(count, 1), h = (count + w - 1) / w;
  return seg_passes(w, blelloch) + (h > 1 ? 1 + stream_scan_passes(h, blelloch) : 0) + 1;
}

TEST(vk_algorithms, launches_follow_the_gl_pass_model) {
  WINNOW_REQUIRE_VK();
  for (const char* spec : {"uniform:4096:p=0.5", "uniform:100003:p=0.3"}) {
    const prepared_case c = make_case(spec);
    for (const std::uint64_t block : {32ull, 512ull})
      for (const bool blelloch : {false, true}) {
        const std::uint64_t n = c.w.size(), w = pow2_at_least_sqrt(n, block), s = w * ((n + w - 1) / w);
        const std::uint64_t lb = log2u(block), scan = seg_passes(block, blelloch);
        const std::uint64_t frame = 1 + stream_scan_passes(s / block, blelloch) + 1; // count, offsets, concat
        const std::map<std::string, std::uint64_t> expected = {
            {"vk/horn", scan + 1 + frame}, {"vk/jj", scan + 1 + frame}, {"vk/bt", lb + 1 + frame},
            {"vk/rlz", lb + scan + 1 + frame}}; // runs by doubling (log2 B), the filter fused into the scan
        for (const auto& [algo, launches] : expected) {
          params p{{"block", std::to_string(block)}, {"scan", blelloch ? "blelloch" : "hillis"}};
          if (algo == "vk/rlz") p["runs"] = "doubling";
          const record r = run(algo, p, c);
          ASSERT_TRUE(r.verified) << algo << " " << winnow::to_string(p) << " " << spec << ": " << r.mismatch;
          EXPECT_EQ(r.launches, launches) << algo << " " << winnow::to_string(p) << " " << spec;
        }
        params tree{{"block", std::to_string(block)}, {"scan", blelloch ? "blelloch" : "hillis"}, {"runs", "tree"}};
        EXPECT_EQ(run("vk/rlz", tree, c).launches, 2 * lb + scan + 1 + frame) << spec;
      }
  }
}

TEST(vk_algorithms, block_sizes_and_concatenations_outside_the_sweep) {
  WINNOW_REQUIRE_VK();
  for (const char* spec : {"all:1", "none:1000", "single:3000", "uniform:100003:p=0.5", "runs:65537:valid=1:invalid=300",
                           "removal:20000:k=0.3:r=0.5", "alternating:5001"}) {
    const prepared_case c = make_case(spec);
    for (const char* algo : {"vk/horn", "vk/jj", "vk/rlz", "vk/bt"})
      for (const char* block : {"128", "2048"})
        for (const char* concat : {"copy", "search"}) {
          const params p{{"block", block}, {"concat", concat}};
          const record r = run(algo, p, c);
          EXPECT_TRUE(r.verified) << algo << " " << winnow::to_string(p) << " " << spec << ": " << r.mismatch;
          EXPECT_EQ(r.valid, c.expected.size());
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
  for (const char* spec : {"all:0", "single:1", "uniform:100003:p=0.5", "runs:65537:valid=300:invalid=1", "all:70001"}) {
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
