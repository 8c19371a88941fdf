#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "winnow/seed_summary.hpp"

namespace winnow {
namespace {

record seeded(const std::string& spec, double mark, double fill, bool verified = true) {
  record r;
  r.api = "cpu";
  r.algorithm = "cpu/redzone";
  r.parameters = {{"threads", "2"}};
  r.device = "a CPU";
  r.spec = spec;
  r.phases = {{"mark", {mark, mark, mark}}, {"fill", {fill, fill, fill}}};
  r.total = {mark + fill, mark + fill, mark + fill};
  r.verified = verified;
  return r;
}

TEST(seed_summary, groups_the_seeds_of_a_case_with_log_means_and_the_largest_total) {
  std::vector<record> rows = {seeded("removal:1K:k=0.1:r=uniform:seed=2", 4, 16),
                              seeded("removal:1K:k=0.1:r=uniform:seed=1", 1, 4),
                              seeded("removal:2K:k=0.1:r=uniform:seed=1", 8, 8), seeded("all:100", 1, 1)};
  rows.push_back(seeded("removal:1K:k=0.1:r=uniform:seed=3", 100, 100, false)); // wrong: left out, counted
  record skipped = seeded("removal:1K:k=0.1:r=uniform:seed=4", 0, 0, false);
  skipped.skipped = "not here";
  rows.push_back(skipped);
  record other = seeded("removal:1K:k=0.1:r=uniform:seed=5", 2, 2);
  other.parameters = {{"threads", "1"}}; // another parameter set: another group
  rows.push_back(other);

  const auto s = summarize_seeds(rows);
  ASSERT_EQ(s.size(), 3u) << "1K with threads=2, 2K, 1K with threads=1; all:100 has no seed";
  EXPECT_EQ(s[0].spec, "removal:1K:k=0.1:r=uniform");
  EXPECT_EQ(s[0].seeds, (std::vector<std::uint64_t>{1, 2}));
  EXPECT_EQ(s[0].failed, 1u);
  EXPECT_EQ(s[0].skipped, 1u);
  ASSERT_EQ(s[0].phase_log_mean_ns.size(), 2u);
  EXPECT_EQ(s[0].phase_log_mean_ns[0].first, "mark");
  EXPECT_DOUBLE_EQ(s[0].phase_log_mean_ns[0].second, 2); // sqrt(1 · 4)
  EXPECT_DOUBLE_EQ(s[0].phase_log_mean_ns[1].second, 8); // sqrt(4 · 16)
  EXPECT_DOUBLE_EQ(s[0].total_log_mean_ns, 10);          // sqrt(5 · 20)
  EXPECT_DOUBLE_EQ(s[0].total_min_ns, 5);
  EXPECT_DOUBLE_EQ(s[0].total_max_ns, 20);
  EXPECT_EQ(s[1].spec, "removal:2K:k=0.1:r=uniform");
  EXPECT_EQ(s[2].parameters.at("threads"), "1");

  const auto j = nlohmann::json::parse(to_json_line(s[0]));
  EXPECT_EQ(j["seeds"], nlohmann::json({1, 2}));
  EXPECT_DOUBLE_EQ(j["total"]["max_ns"].get<double>(), 20);
  EXPECT_DOUBLE_EQ(j["phases"][1]["log_mean_ns"].get<double>(), 8);
  const std::string csv = to_csv(s);
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "schema,api,algorithm,params,case,device,seeds,failed,skipped,total_log_mean_ns,total_min_ns,total_max_ns,"
            "mark_log_mean_ns,fill_log_mean_ns");
  EXPECT_NE(csv.find(",1;2,1,1,10,5,20,2,8\n"), std::string::npos) << csv;
}

TEST(seed_summary, a_group_with_nothing_verified_has_no_seeds_and_no_times) {
  const auto s = summarize_seeds({seeded("uniform:100:p=0.5:seed=7", 1, 1, false)});
  ASSERT_EQ(s.size(), 1u);
  EXPECT_TRUE(s[0].seeds.empty());
  EXPECT_EQ(s[0].failed, 1u);
  EXPECT_EQ(s[0].total_log_mean_ns, 0);
  EXPECT_EQ(s[0].total_max_ns, 0);
}

} // namespace
} // namespace winnow
