// result() is the CPU algorithms' last step: it hands the buffers over instead of copying them (a
// 2 GiB case's copies cost more than its run), so a second result() and the reset() a run needs must
// be refused, not read or overrun moved-from buffers, and prepare() must make the algorithm whole again.
#include <gtest/gtest.h>

#include "winnow/corpus.hpp"
#include "winnow/error.hpp"
#include "winnow/reference.hpp"
#include "winnow/registry.hpp"

namespace winnow::cpu {
namespace {

TEST(hand_over, result_is_the_last_step_until_prepare) {
  registry reg;
  register_backend(reg);
  const workload w = generate("removal:10007:k=0.3");
  const std::vector<std::uint32_t> expected = reference_compact(w);
  const auto& algorithms = reg.find_backend("cpu").algorithms;
  ASSERT_GE(algorithms.size(), 7u);
  for (const algorithm_entry& entry : algorithms) {
    SCOPED_TRACE(entry.info.full_name());
    auto a = entry.make();
    const param_set p = resolve_params(entry.info, {});
    for (int round = 0; round < 2; ++round) { // the second prepare() reuses the spent object
      a->prepare(w, p, {});
      for (int rep = 0; rep < 2; ++rep) { // repetitions before result() keep working
        a->reset();
        auto t = a->make_timer();
        t->start();
        a->run(*t);
        t->stop();
      }
      const compaction_output out = a->result();
      EXPECT_TRUE(verify(w, expected, out, entry.info.stable).ok);
      EXPECT_THROW((void)a->result(), error);
      EXPECT_THROW(a->reset(), error);
    }
  }
}

} // namespace
} // namespace winnow::cpu
