// bench's cases made a batch at a time on all cores, and with `ahead` the next batch in the
// background (tools/winnow/case_maker): each handed back is the case asked for, made as one at a
// time would make it, and a case that cannot be made says why without taking its neighbours with it.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <tbb/task_arena.h>

#include "case_maker.hpp"
#include "winnow/error.hpp"
#include "winnow/reference.hpp"

namespace winnow::cli {
namespace {

class case_maker_test : public testing::TestWithParam<bool> {};

TEST_P(case_maker_test, hands_back_each_case_as_made_alone_and_says_why_one_cannot_be_made) {
  const bool ahead = GetParam();
  const auto bad =
      std::filesystem::temp_directory_path() / ("winnow_case_maker_" + std::to_string(::getpid()) + ".pgm");
  std::ofstream(bad, std::ios::binary) << "P5\n64 64\n255\nabc"; // a header that passes, data that do not
  std::vector<std::string> texts = {
      "uniform:5000:p=0.5:seed=1", "removal:3001:k=0.3:seed=2", "uniform:5000:p=0.5:seed=3", "file:" + bad.string(),
      "runs:7000:seed=4",          "removal:3001:k=0.3:seed=5", "brownian:4000:p=0.3",       "all:0",
      "uniform:5000:p=0.5:seed=6"};
  std::vector<case_spec> specs;
  for (const auto& t : texts) specs.push_back(parse_spec(t));
  // As on a machine of two cores, whatever this one has: batches of two, made ahead one at a time.
  tbb::task_arena two(2);
  two.execute([&] {
    case_maker maker(specs, ahead);
    for (std::size_t i = 0; i < specs.size(); ++i) {
      const made_case m = maker.take(i);
      if (specs[i].family == "file") {
        EXPECT_FALSE(m.c) << texts[i];
        EXPECT_NE(m.why_not.find("truncated"), std::string::npos) << m.why_not;
        continue;
      }
      ASSERT_TRUE(m.c) << texts[i] << ": " << m.why_not;
      const workload alone = generate(specs[i]);
      EXPECT_EQ(m.c->w.spec, to_string(specs[i]));
      EXPECT_EQ(checksum(m.c->w), checksum(alone)) << texts[i];
      EXPECT_EQ(m.c->expected, reference_compact(alone)) << texts[i];
    }
    EXPECT_THROW((void)maker.take(2), error) << "a case is taken once";
    EXPECT_THROW((void)maker.take(specs.size()), error) << "past the plan";
    // Small cases always fit beside the batch held: every batch after the first is made ahead.
    if (ahead) EXPECT_EQ(maker.made_ahead(), specs.size() - 2) << "all but the first batch's two";
    else EXPECT_EQ(maker.made_ahead(), 0u);
  });
  std::filesystem::remove(bad);
}

TEST(case_maker, a_bench_left_before_its_last_case_waits_for_the_batch_being_made_ahead) {
  std::vector<case_spec> specs;
  for (int seed = 1; seed <= 6; ++seed) specs.push_back(parse_spec("uniform:200000:seed=" + std::to_string(seed)));
  case_maker maker(specs, true);
  const made_case first = maker.take(0);
  ASSERT_TRUE(first.c);
  EXPECT_GT(maker.made_ahead(), 0u);
  // Destroyed here with a batch in the making: the destructor waits for it (ASan would see a use
  // after free otherwise).
}

INSTANTIATE_TEST_SUITE_P(ahead, case_maker_test, testing::Bool(),
                         [](const testing::TestParamInfo<bool>& i) { return i.param ? "ahead" : "in_turn"; });

} // namespace
} // namespace winnow::cli
