// cuda/lookback's tuning chosen on the device (lookback_tuning.hpp): which candidates a probe times,
// how it chooses among their times (host only, so CI runs them), and on a device that tile=auto and
// pause=auto run one of the candidates, say which, and verify.
#include <gtest/gtest.h>

#include <algorithm>

#include "need_device.hpp"
#include "winnow/backends.hpp"
#include "winnow/corpus.hpp"
#include "winnow/harness.hpp"

// Private header of winnow::cuda (tests may look inside).
#include "../../cuda/src/lookback_tuning.hpp"

namespace winnow::cuda {
namespace {

TEST(cuda_lookback_tuning, the_candidates_start_with_the_default_and_hold_what_was_given) {
  const auto all = lookback_candidates({}, true);
  ASSERT_EQ(all.size(), 6u); // two shapes by three pauses
  EXPECT_EQ(all.front(), (lookback_tuning{"128x16m4", 2000}));
  EXPECT_NE(std::find(all.begin(), all.end(), lookback_tuning{"128x16m5", 3000}), all.end());

  const auto shape_given = lookback_candidates({.shape = "256x8"}, true);
  ASSERT_EQ(shape_given.size(), 3u);
  for (const auto& c : shape_given) EXPECT_EQ(c.shape, "256x8");

  const auto pause_given = lookback_candidates({.pause_ns = 500u}, true);
  ASSERT_EQ(pause_given.size(), 2u);
  for (const auto& c : pause_given) EXPECT_EQ(c.pause_ns, 500u);

  // A spinning look-back never pauses: its candidates differ by shape alone.
  const auto spin = lookback_candidates({}, false);
  ASSERT_EQ(spin.size(), 2u);
  EXPECT_EQ(spin[0].shape, "128x16m4");
  EXPECT_EQ(spin[1].shape, "128x16m5");
}

TEST(cuda_lookback_tuning, the_default_stays_unless_another_is_faster_by_the_margin) {
  // Times per candidate at three densities; the sums decide.
  EXPECT_EQ(fastest_candidate({{100, 200, 300}, {99, 199, 299}}, 0.01), 0u); // 0.5 % faster: noise
  EXPECT_EQ(fastest_candidate({{100, 200, 300}, {96, 194, 290}}, 0.01), 1u); // 3.3 % faster
  EXPECT_EQ(fastest_candidate({{100, 200, 300}, {96, 194, 290}, {90, 190, 280}}, 0.01), 2u);
  // Faster at one density but slower overall loses.
  EXPECT_EQ(fastest_candidate({{100, 200, 300}, {80, 230, 310}}, 0.0), 0u);
  EXPECT_EQ(fastest_candidate({{5}}, 0.01), 0u);
  EXPECT_THROW((void)fastest_candidate({}, 0.01), error);
  EXPECT_THROW((void)fastest_candidate({{1, 2}, {1}}, 0.01), error);
}

TEST(cuda_lookback_tuning, auto_runs_a_candidate_says_which_and_verifies) {
  WINNOW_NEED_DEVICE();
  const auto& reg = all_backends();
  prepared_case c = prepare_case(generate("uniform:3000017:p=0.3"));
  const auto candidates = lookback_candidates({}, true);
  for (const char* element : {"32", "128"}) {
    const record r = run_case(reg, reg.find("cuda/lookback"), {{"element", element}}, c, {0, 2, false});
    EXPECT_TRUE(r.verified) << r.mismatch;
    ASSERT_TRUE(r.chosen.contains("tile") && r.chosen.contains("pause")) << to_string(r.chosen);
    const lookback_tuning ran{r.chosen.at("tile"), static_cast<unsigned>(std::stoul(r.chosen.at("pause")))};
    EXPECT_NE(std::find(candidates.begin(), candidates.end(), ran), candidates.end()) << to_string(r.chosen);
    // The probe's medians of every candidate, in the record's notes.
    ASSERT_TRUE(r.notes.contains("tuning")) << to_string(r.notes);
    for (const auto& cand : candidates)
      EXPECT_NE(r.notes.at("tuning").find(cand.shape + "/" + std::to_string(cand.pause_ns)), std::string::npos)
          << r.notes.at("tuning");
    // The probe runs once a process for a kind of kernel: a second record gets the same.
    const record again = run_case(reg, reg.find("cuda/lookback"), {{"element", element}}, c, {0, 1, false});
    EXPECT_EQ(again.chosen, r.chosen);
  }
  // What is given is run as given and not reported as chosen.
  const record given =
      run_case(reg, reg.find("cuda/lookback"), {{"tile", "128x16m3"}, {"pause", "1500"}}, c, {0, 1, false});
  EXPECT_TRUE(given.verified) << given.mismatch;
  EXPECT_TRUE(given.chosen.empty()) << to_string(given.chosen);
  const record half = run_case(reg, reg.find("cuda/lookback"), {{"tile", "128x16m3"}}, c, {0, 1, false});
  EXPECT_TRUE(half.verified) << half.mismatch;
  EXPECT_FALSE(half.chosen.contains("tile"));
  EXPECT_TRUE(half.chosen.contains("pause"));
  // A spinning look-back never pauses: its record names the shape it chose and no pause.
  const record spin = run_case(reg, reg.find("cuda/lookback"), {{"wait", "spin"}}, c, {0, 1, false});
  EXPECT_TRUE(spin.verified) << spin.mismatch;
  EXPECT_TRUE(spin.chosen.contains("tile")) << to_string(spin.chosen);
  EXPECT_FALSE(spin.chosen.contains("pause")) << to_string(spin.chosen);
}

} // namespace
} // namespace winnow::cuda
