// Every shader loop is capped by the bound ALGORITHMS.md proves; with WINNOW_VK_LOOP_CHECK=1 the
// in-block search passes write their trip counts and result() fails if one ever needed more.
#include <gtest/gtest.h>

#include <cstdlib>

#include "winnow/backends.hpp"
#include "winnow/corpus.hpp"
#include "winnow/harness.hpp"
#include "winnow/reference.hpp"
#include "winnow/vulkan/device.hpp"

namespace winnow::vk {
namespace {

TEST(vk_loop_bounds, search_loops_stay_within_their_proven_bound) {
  if (auto reason = unavailable_reason()) GTEST_SKIP() << *reason;
  ::setenv("WINNOW_VK_LOOP_CHECK", "1", 1);
  const registry& reg = all_backends();
  // Dense, sparse, single (JJ's worst case: the one valid element mid-block needs B − 1 hops),
  // many short runs (RLZ's worst case) and long runs.
  const std::vector<params> variants = {{{"scan", "hillis"}},
                                        {{"scan", "blelloch"}, {"runs", "tree"}, {"search", "plain"}},
                                        {{"runs", "doubling"}, {"search", "plain"}}};
  for (const char* spec : {"all:5000", "single:4096:at=0", "single:4096", "single:4096:at=1024", "uniform:70000:p=0.02",
                           "uniform:70000:p=0.98", "runs:70000:valid=3:invalid=1000", "alternating:9000"}) {
    prepared_case c{generate(spec), {}};
    c.expected = reference_compact(c.w);
    for (const auto& b : reg.backends()) {
      if (b.api != "vk") continue;
      for (const auto& e : b.algorithms) {
        if (e.info.name == "ballot") continue; // no data-dependent loop
        for (const char* block : {"32", "128", "512", "2048"})
          for (params p : variants) {
            p["block"] = block;
            if (e.info.name != "rlz") p.erase("runs"), p.erase("search");
            const record r = run_case(reg, e, p, c, {0, 1, false});
            EXPECT_TRUE(r.verified) << e.info.full_name() << " " << winnow::to_string(p) << " " << spec << ": " << r.mismatch;
          }
      }
    }
  }
  ::unsetenv("WINNOW_VK_LOOP_CHECK");
}

} // namespace
} // namespace winnow::vk
