// Every shader loop is capped by the bound ALGORITHMS.md proves; with WINNOW_GL_LOOP_CHECK=1 the
// search passes write their trip counts and result() fails if one ever needed more than the bound.
#include <gtest/gtest.h>

#include <cstdlib>

#include "winnow/backends.hpp"
#include "winnow/corpus.hpp"
#include "winnow/gl/context.hpp"
#include "winnow/harness.hpp"
#include "winnow/reference.hpp"

namespace winnow::gl {
namespace {

TEST(gl_loop_bounds, search_loops_stay_within_their_proven_bound) {
  if (auto reason = unavailable_reason()) GTEST_SKIP() << *reason;
  ::setenv("WINNOW_GL_LOOP_CHECK", "1", 1);
  const registry& reg = all_backends();
  // Dense, sparse, single, alternating and long runs: the worst cases of every loop's bound (Jumping
  // Jack: one valid element in the middle of a block needs B − 1 hops).
  for (const char* spec : {"all:5000", "single:4096:at=0", "single:4096", "single:4096:at=1024", "single:4096:at=16",
                           "uniform:70000:p=0.02", "uniform:70000:p=0.98", "runs:70000:valid=3:invalid=1000",
                           "alternating:9000"}) {
    prepared_case c{generate(spec), {}};
    c.expected = reference_compact(c.w);
    for (const auto& b : reg.backends()) {
      if (b.api != "gl") continue;
      for (const auto& e : b.algorithms)
        for (const auto& p : sweep(e.info, {"concat"})) { // the concatenation has no loop
          const record r = run_case(reg, e, p, c, {0, 1, false});
          EXPECT_TRUE(r.verified) << e.info.full_name() << " " << to_string(p) << " " << spec << ": " << r.mismatch;
        }
    }
  }
  ::unsetenv("WINNOW_GL_LOOP_CHECK");
}

} // namespace
} // namespace winnow::gl
