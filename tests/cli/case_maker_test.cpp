// bench's cases made a batch ahead on all cores (tools/winnow/case_maker): each handed back is the
// case asked for, made as one at a time would make it, and a case that cannot be made says why
// without taking its neighbours with it.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "case_maker.hpp"
#include "winnow/error.hpp"
#include "winnow/reference.hpp"

namespace winnow::cli {
namespace {

TEST(case_maker, hands_back_each_case_as_made_alone_and_says_why_one_cannot_be_made) {
  const auto bad =
      std::filesystem::temp_directory_path() / ("winnow_case_maker_" + std::to_string(::getpid()) + ".pgm");
  std::ofstream(bad, std::ios::binary) << "P5\n64 64\n255\nabc"; // a header that passes, data that do not
  std::vector<std::string> texts = {
      "uniform:5000:p=0.5:seed=1", "removal:3001:k=0.3:seed=2", "uniform:5000:p=0.5:seed=3", "file:" + bad.string(),
      "runs:7000:seed=4",          "removal:3001:k=0.3:seed=5", "brownian:4000:p=0.3",       "all:0",
      "uniform:5000:p=0.5:seed=6"};
  std::vector<case_spec> specs;
  for (const auto& t : texts) specs.push_back(parse_spec(t));
  case_maker maker(specs);
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
  std::filesystem::remove(bad);
}

} // namespace
} // namespace winnow::cli
