// The adaptive algorithm's host side: what the sample says of a stream (the same words the sample
// pass writes: tests/conformance/shader_era_test.cpp compares them on every API), and the model's fit.
#include <gtest/gtest.h>

#include <cmath>

#include "winnow/corpus.hpp"
#include "winnow/shader_era/adaptive_model.hpp"
#include "winnow/shader_era/sampling.hpp"

namespace winnow::shader_era {
namespace {

features of(const std::string& spec) {
  const workload w = generate(spec);
  const sample_shape s = sample_shape_for(w.size());
  return features_of(estimate(sample_words(w.data, s), s));
}

TEST(sampling, small_streams_are_read_whole) {
  // 1000 elements: 32 windows of 32 cover every element, the last window 8 of them.
  const sample_shape s = sample_shape_for(1000);
  EXPECT_EQ(s.words, 32u);
  EXPECT_EQ(s.stride, 32u);
  std::vector<std::uint32_t> data(1000, 0);
  for (std::size_t i = 0; i < data.size(); i += 4) data[i] = static_cast<std::uint32_t>(i + 1); // 250 valid
  const auto words = sample_words(data, s);
  std::uint64_t valid = 0;
  for (const auto w : words) valid += w & 0xffffu;
  EXPECT_EQ(valid, 250u);
  EXPECT_EQ(words.back() & 0xffffu, 2u); // elements 992 and 996 of 992 … 999
  EXPECT_EQ(words.back() >> 16, 3u);     // v i i i v i i i: three changes
  const features f = features_of(estimate(words, s));
  EXPECT_NEAR(f[0], 1.0, 1e-12);
  EXPECT_NEAR(f[1], 0.25, 1e-12);
}

TEST(sampling, empty_and_tiny_streams) {
  for (const std::uint64_t n : {0u, 1u, 31u, 33u}) {
    const sample_shape s = sample_shape_for(n);
    const std::vector<std::uint32_t> data(n, 7);
    const features f = features_of(estimate(sample_words(data, s), s));
    EXPECT_NEAR(f[0], 1.0, 1e-12) << n;
    EXPECT_NEAR(f[1], n ? 1.0 : 0.0, 1e-12) << n;
    EXPECT_NEAR(f[3], 0.0, 1e-12) << n;
  }
}

TEST(sampling, large_streams_are_sampled_sparsely_and_told_apart) {
  const sample_shape s = sample_shape_for(4u << 20);
  EXPECT_EQ(s.words, sample_windows);
  EXPECT_EQ(s.stride, 1024u);
  EXPECT_EQ(s.regions, sample_regions);
  // Noise of density p changes validity at 2p(1 − p) of its pairs; an image of about the same density
  // hardly ever does.
  const features noise = of("uniform:4M:p=0.5");
  EXPECT_NEAR(noise[1], 0.5, 0.01);
  EXPECT_NEAR(noise[2], 0.25, 0.01);
  EXPECT_NEAR(noise[3], std::sqrt(0.5), 0.01); // the feature is √c
  const features image = of("bunny:4M");
  EXPECT_LT(image[3], 0.1);
  // Regions: an image's density varies over it, so E[p²] exceeds the square of its mean.
  EXPECT_GT(image[2], image[1] * image[1] + 0.001);
}

training_record rec(const std::string& block, const std::string& spec, double ns) {
  return {"bt", {{"block", block}, {"scan", "hillis"}}, spec, 1000, ns};
}

TEST(adaptive_model, only_candidates_on_the_lower_envelope_can_be_chosen) {
  // Lines a + b·p over the mean density p: 0 lowest below p = 0.25, 1 up to 0.7, 2 above; 3 lies
  // above 1 everywhere; 4 equals 0 and loses every tie to it (the first of equals).
  const std::vector<features> lines{{10, 40, 0, 0}, {15, 20, 0, 0}, {22, 10, 0, 0}, {16, 21, 0, 0}, {10, 40, 0, 0}};
  EXPECT_EQ(ever_fastest(lines), (std::vector<bool>{true, true, true, false, false}));
  // One that wins only at p = 1 exactly (a tie there, and it comes first) is kept.
  EXPECT_EQ(ever_fastest({{35, 0, 0, 0}, {25, 10, 0, 0}}), (std::vector<bool>{true, true}));
  EXPECT_EQ(ever_fastest({{36, 0, 0, 0}, {25, 10, 0, 0}}), (std::vector<bool>{false, true}));
  // A model with p² or c terms keeps every candidate, as does one candidate alone.
  EXPECT_EQ(ever_fastest({{10, 0, 0, 0}, {20, 0, 0, 1}}), (std::vector<bool>{true, true}));
  EXPECT_EQ(ever_fastest({{5, 5, 0, 0}}), (std::vector<bool>{true}));
  // The third lowest only inside (0.4, 0.6): it loses its ties at both ends to the first ones.
  EXPECT_EQ(ever_fastest({{1, -1, 0, 0}, {0, 1, 0, 0}, {0.4, 0, 0, 0}}), (std::vector<bool>{true, true, true}));
  EXPECT_TRUE(ever_fastest({}).empty());
}

TEST(adaptive_model, fits_each_winner_and_predicts_where_it_wins) {
  // Block 2048 costs 100 + 1000 p, block 32 a flat 610 ns, block 512 always 700 (never fastest:
  // no candidate). Features from the spec's own number, no generation.
  const auto features_of_case = [](const std::string& spec) -> std::optional<features> {
    const double p = std::stod(spec.substr(spec.find("p=") + 2));
    return features{1, p, p * p, 2 * p * (1 - p)};
  };
  std::vector<training_record> r;
  for (const char* density : {"0.05", "0.3", "0.7", "0.95"}) {
    const double p = std::stod(density);
    const std::string spec = std::string("uniform:1000:p=") + density;
    r.push_back(rec("2048", spec, 100 + 1000 * p));
    r.push_back(rec("32", spec, 610));
    r.push_back(rec("512", spec, 700));
  }
  r.push_back({"bt", {{"block", "128"}}, "uniform:1000:p=0.05", 1000, 1});  // fastest once, but no full sweep
  r.push_back({"bt", {{"block", "32"}}, "uniform:64000:p=0.05", 64000, 5}); // another size: not trained on
  const adaptive_model m = fit(r, 2000, features_of_case);
  EXPECT_EQ(m.trained_n, 1000u);
  EXPECT_EQ(m.cases.size(), 4u);
  ASSERT_EQ(m.candidates.size(), 2u);
  const auto predicted = [&](const adaptive_candidate& c, double p) {
    return predict_ns_per_element(c, {1, p, p * p, 2 * p * (1 - p)}) * 1000;
  };
  for (const adaptive_candidate& c : m.candidates) {
    const bool big = c.given.at("block") == "2048";
    EXPECT_EQ(c.wins, big ? 1u : 2u); // block 128 won p = 0.05
    for (const double p : {0.0, 0.2, 0.5, 0.8, 1.0}) EXPECT_NEAR(predicted(c, p), big ? 100 + 1000 * p : 610, 1.0) << p;
    // Worst regret against the fastest record of any parameter set (block 128's 1 ns at p = 0.05):
    // block 2048 loses 1050 - 610 at p = 0.95, block 32 loses 610 - 1 at p = 0.05.
    EXPECT_DOUBLE_EQ(c.worst_regret_ns, big ? 440 : 609) << c.given.at("block");
    // The mean of each case's loss: block 2048 (149 + 0 + 190 + 440) / 4, block 32 (609 + 210 + 0 + 0) / 4.
    EXPECT_DOUBLE_EQ(c.mean_regret_ns, big ? 194.75 : 204.75) << c.given.at("block");
  }
}

// Each candidate's phases in ns per element, the mean over the training cases (n = 1000): block
// 2048's reduce takes 30 ns on one case and 100 on the other (0.065 ns per element on average); a
// phase missing from a record counts 0 there (traverse: 20 ns on one case, so 0.01).
TEST(adaptive_model, keeps_each_candidates_phase_times) {
  const auto same = [](const std::string&) -> std::optional<features> { return features{1, 0.5, 0.25, 0.5}; };
  training_record a = rec("2048", "a", 100), b = rec("2048", "b", 200);
  a.phases = {{"reduce", 30}, {"traverse", 20}};
  b.phases = {{"reduce", 100}};
  const adaptive_model m = fit({a, b}, 1000, same);
  ASSERT_EQ(m.candidates.size(), 1u);
  EXPECT_DOUBLE_EQ(m.candidates[0].phase_ns.at("reduce"), 0.065);
  EXPECT_DOUBLE_EQ(m.candidates[0].phase_ns.at("traverse"), 0.01);
  EXPECT_FALSE(m.candidates[0].phase_ns.contains("count"));
}

// Two cases the features cannot tell apart, one taking 100 ns and the other 400: the fit minimises the
// relative error, so it predicts (1/100 + 1/400) / (1/100² + 1/400²) = 117.6 ns, near the faster (an
// absolute fit would say their mean, 250: 2.5 × the first case's time, against 0.29 × below the second).
TEST(adaptive_model, fits_the_relative_error) {
  const auto same = [](const std::string&) -> std::optional<features> { return features{1, 0.5, 0.25, 0.5}; };
  const adaptive_model m = fit({rec("2048", "a", 100), rec("2048", "b", 400)}, 1000, same);
  ASSERT_EQ(m.candidates.size(), 1u);
  EXPECT_NEAR(predict_ns_per_element(m.candidates[0], {1, 0.5, 0.25, 0.5}) * 1000, 117.6, 0.5);
}

TEST(adaptive_model, picks_the_nearest_size_and_keeps_at_most_six) {
  std::vector<training_record> r;
  for (int b = 0; b < 8; ++b)
    for (int c = 0; c < 8; ++c) // candidate b is fastest on case b only
      r.push_back(
          {"jj", {{"block", std::to_string(32 << b)}}, "case" + std::to_string(c), 4096, c == b ? 1.0 : 2.0 + b});
  r.push_back({"jj", {{"block", "32"}}, "x", 65536, 1.0});
  const auto any = [](const std::string&) -> std::optional<features> { return features{1, 0, 0, 0}; };
  const adaptive_model m = fit(r, 10000, any); // nearer 4096 than 65536 by ratio
  EXPECT_EQ(m.trained_n, 4096u);
  ASSERT_EQ(m.candidates.size(), max_candidates);
  // Ties in wins: the fastest over all cases first (the smaller blocks here).
  EXPECT_EQ(m.candidates.front().given.at("block"), "32");
}

} // namespace
} // namespace winnow::shader_era
