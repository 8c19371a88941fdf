// `bench --shard I/N` and `winnow merge`: the shards of a plan are disjoint, cover it, and merge into
// the records of one unsharded run in its order; shards that do not belong together are refused.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "bench_plan.hpp"
#include "run_winnow.hpp"
#include "shard.hpp"
#include "winnow/backends.hpp"
#include "winnow/harness.hpp"

namespace {

namespace fs = std::filesystem;
using winnow_test::result;
using winnow_test::winnow;

/// Each record's (algorithm, parameters, case), in file order.
std::vector<std::string> keys(const fs::path& jsonl) {
  std::vector<std::string> out;
  std::ifstream in(jsonl);
  for (std::string line; std::getline(in, line);) {
    const auto j = nlohmann::json::parse(line);
    out.push_back(j["algorithm"].get<std::string>() + " " + j["params"].dump() + " " + j["case"].get<std::string>());
  }
  return out;
}

std::string text_of(const fs::path& p) {
  std::ostringstream s;
  s << std::ifstream(p).rdbuf();
  return s.str();
}

nlohmann::json json_of(const fs::path& p) { return nlohmann::json::parse(std::ifstream(p)); }

class shard : public testing::Test {
protected:
  void SetUp() override {
    m_dir = fs::temp_directory_path() / ("winnow_shard_" + std::to_string(::getpid()));
    fs::create_directories(m_dir);
  }
  void TearDown() override { fs::remove_all(m_dir); }
  /// The cpu algorithms over cases of very different sizes, quickly: the partition has costs to balance.
  result bench(const std::string& out, const std::string& more = "") const {
    return winnow("bench --api cpu --algo 'cpu/*' --reps 2 --warmup 0 --warmup-time 0 --case uniform:2M:p=0.5 "
                  "--case uniform:4K:p=0.1 --case removal:256K:k=0.1 --case uniform:64K:p=0.9 --out " +
                  (m_dir / out).string() + " " + more);
  }
  fs::path m_dir;
};

TEST(shard_costs, the_estimate_counts_a_watched_warm_up_and_a_device_check_where_the_partition_does_not) {
  // 2^26 elements on cuda: a set-up of 2 ms and 0.05 ns an element, a run of 2^26 × 0.01 ns, the host
  // check 2^26 × 3 ns (docs/cli.md, SHARDING).
  winnow::cli::cost_inputs c{.api = "cuda", .n = 1ull << 26, .reps = 10, .warmup = 2, .warmup_ms = 200};
  const double setup = 0.002 + 0x1p26 * 0.05e-9, run = 0x1p26 * 0.01e-9, check = 0x1p26 * 3e-9;
  const double plain = winnow::cli::record_seconds(c);
  EXPECT_NEAR(plain, setup + check + 0.2 + 10 * run, 1e-12);
  c.watched = true; // the clock watched: two warm-up runs, not 200 ms
  EXPECT_NEAR(plain - winnow::cli::record_seconds(c), 0.2 - 2 * run, 1e-12);
  c.checked_on_device = true;
  EXPECT_NEAR(plain - winnow::cli::record_seconds(c), 0.2 - 2 * run + check, 1e-12);
  c.min_time_ms = 100; // timed runs until 100 ms of them, more than 10 runs take
  EXPECT_NEAR(winnow::cli::record_seconds(c) - 0.1, setup + 2 * run, 1e-12);
  c.min_time_ms = 0;
  c.busy_ms = 30; // the runs (2 + 10: 8.1 ms) go on until they have lasted 30 ms
  EXPECT_NEAR(winnow::cli::record_seconds(c), setup + 0.030, 1e-12);
  c.min_time_ms = 20; // both met by the same timed runs: 30 ms in all, not 20 + 30
  EXPECT_NEAR(winnow::cli::record_seconds(c), setup + 0.030, 1e-12);
  c.min_time_ms = 0;
  c.relative_cost = 40; // an algorithm on one block of the GPU: runs of 27 ms, past the busy time, and
                        // one warm-up run, as the harness makes where a run takes 10 ms or more
  EXPECT_NEAR(winnow::cli::record_seconds(c), setup + 11 * 40 * run, 1e-12);
  c.relative_cost = 1;
  c.watched = false; // the settle rule knows no busy time
  EXPECT_NEAR(winnow::cli::record_seconds(c), setup + 0.2 + 10 * run, 1e-12);
}

TEST(shard_costs, a_case_made_ahead_costs_only_its_wait) {
  // 4 ns an element made in turn, 0.6 ns where bench makes it while a watched GPU measures.
  EXPECT_NEAR(winnow::cli::make_seconds(1u << 20), 0x1p20 * 4e-9, 1e-12);
  EXPECT_NEAR(winnow::cli::make_seconds(1u << 20, true), 0x1p20 * 0.6e-9, 1e-12);
  // plan_costs counts it ahead only where every job's device is watched.
  const auto& reg = winnow::all_backends();
  winnow::cli::bench_plan plan{.name = "p", .jobs = {{&reg.find("cpu/redzone"), {}}}, .cases = {"removal:1M:k=0.1"}};
  const winnow::run_options o;
  const winnow::cli::device_terms watched{.watched = [](const std::string&) { return true; },
                                          .checks_on_device = [](const std::string&) { return false; }};
  EXPECT_NEAR(winnow::cli::plan_costs(plan, o, watched)[0].make_seconds, 0x1p20 * 0.6e-9, 1e-12);
  EXPECT_NEAR(winnow::cli::plan_costs(plan, o)[0].make_seconds, 0x1p20 * 4e-9, 1e-12);
}

TEST(shard_costs, a_plan_weighs_each_algorithm_by_its_relative_cost) {
  // On one core, cpu/sequential's runs count 5 times cpu/redzone's (docs/cli.md, SHARDING); the
  // set-up and upload of the same case are the same for both.
  const auto& reg = winnow::all_backends();
  winnow::cli::bench_plan plan{.name = "p", .jobs = {}, .cases = {"removal:1M:k=0.1"}, .not_run = {}};
  for (const char* name : {"cpu/sequential", "cpu/redzone"}) plan.jobs.push_back({&reg.find(name), {}});
  winnow::run_options o;
  o.reps = 10;
  o.warmup = 0;
  o.warmup_ns = 0;
  const auto costs = winnow::cli::plan_costs(plan, o);
  ASSERT_EQ(costs.size(), 2u);
  EXPECT_EQ(reg.find("cpu/sequential").info.relative_cost, 5);
  EXPECT_EQ(reg.find("cpu/redzone").info.relative_cost, 1);
  const double run = 0x1p20 * 0.8e-9;
  EXPECT_NEAR(costs[0].seconds - costs[1].seconds, 10 * (5 - 1) * run, 1e-9);
}

TEST_F(shard, bad_shard_values_are_usage_errors_naming_the_value) {
  for (const std::string bad : {"3/3", "1/0", "x", "1/", "/2", "-1/2", "1/2/3", "0/2x"}) {
    const result r = bench("b", "--shard '" + bad + "'");
    EXPECT_EQ(r.code, 2) << bad << "\n" << r.output;
    EXPECT_NE(r.output.find("--shard '" + bad + "'"), std::string::npos) << r.output;
    const result p = winnow("reproduce cpu --quick --out " + (m_dir / "r").string() + " --shard '" + bad + "'");
    EXPECT_EQ(p.code, 2) << bad << "\n" << p.output;
    EXPECT_NE(p.output.find("--shard '" + bad + "'"), std::string::npos) << p.output;
  }
  EXPECT_FALSE(fs::exists(m_dir / "b" / "custom.jsonl"));
}

TEST_F(shard, shards_cover_the_plan_once_and_merge_into_an_unsharded_runs_records_in_its_order) {
  ASSERT_EQ(bench("whole").code, 0);
  const auto whole = keys(m_dir / "whole" / "custom.jsonl");
  ASSERT_GT(whole.size(), 12u);
  std::multiset<std::string> union_of_shards;
  double estimated[3] = {};
  for (int i = 0; i < 3; ++i) {
    const std::string name = "s" + std::to_string(i), spec = std::to_string(i) + "/3";
    // --list --json says what the shard will run; the run runs just that.
    const result list = bench(name, "--shard " + spec + " --list --json");
    ASSERT_EQ(list.code, 0) << list.output;
    const auto plan = nlohmann::json::parse(list.output);
    estimated[i] = plan["seconds"].get<double>();
    const result r = bench(name, "--shard " + spec);
    ASSERT_EQ(r.code, 0) << r.output;
    const auto mine = keys(m_dir / name / "custom.jsonl");
    EXPECT_EQ(mine.size(), plan["records"].get<std::size_t>());
    EXPECT_FALSE(mine.empty()) << "shard " << spec << " got nothing to run";
    union_of_shards.insert(mine.begin(), mine.end());
    const auto status = json_of(m_dir / name / "custom.status.json");
    EXPECT_EQ(status["shard"]["index"], i);
    EXPECT_EQ(status["shard"]["count"], 3);
    EXPECT_EQ(status["planned"], mine.size());
    EXPECT_EQ(status["shard"]["plan"].size(), whole.size());
  }
  EXPECT_EQ(union_of_shards, std::multiset<std::string>(whole.begin(), whole.end()))
      << "each record in exactly one shard";
  // Balanced by cost, not by count: no shard is estimated at more than twice another's time.
  const auto [lo, hi] = std::minmax({estimated[0], estimated[1], estimated[2]});
  EXPECT_LT(hi, 2 * lo) << lo << " " << hi;

  // Given in any order, the shards merge into the plan's order.
  const result m = winnow("merge --out " + (m_dir / "merged").string() + " " + (m_dir / "s2").string() + " " +
                          (m_dir / "s0").string() + " " + (m_dir / "s1").string());
  ASSERT_EQ(m.code, 0) << m.output;
  EXPECT_EQ(keys(m_dir / "merged" / "custom.jsonl"), whole);
  const auto status = json_of(m_dir / "merged" / "custom.status.json");
  EXPECT_EQ(status["complete"], true);
  EXPECT_EQ(status["records"], whole.size());
  EXPECT_EQ(status["planned"], whole.size());
  EXPECT_FALSE(status.contains("shard"));
  // The CSV as one run writes it: a header, then a row a record.
  std::istringstream csv(text_of(m_dir / "merged" / "custom.csv"));
  std::size_t rows = 0;
  for (std::string line; std::getline(csv, line);) ++rows;
  EXPECT_EQ(rows, whole.size() + 1);

  // bench --resume on the merged folder finds every record there and runs nothing.
  const std::string before = text_of(m_dir / "merged" / "custom.jsonl");
  const result again = bench("merged", "--resume");
  ASSERT_EQ(again.code, 0) << again.output;
  EXPECT_NE(again.output.find("resuming: " + std::to_string(whole.size()) + " records"), std::string::npos)
      << again.output;
  EXPECT_EQ(text_of(m_dir / "merged" / "custom.jsonl"), before);
}

TEST_F(shard, merge_refuses_shards_that_do_not_belong_together_and_writes_nothing) {
  for (int i = 0; i < 2; ++i) ASSERT_EQ(bench("s" + std::to_string(i), "--shard " + std::to_string(i) + "/2").code, 0);
  const auto merge = [&](const std::vector<std::string>& shards) {
    std::string args = "merge --out " + (m_dir / "m").string();
    for (const auto& s : shards) args += " " + (m_dir / s).string();
    return winnow(args);
  };
  const auto refused = [&](const std::vector<std::string>& shards, const std::string& why) {
    const result r = merge(shards);
    EXPECT_EQ(r.code, 2) << r.output;
    EXPECT_NE(r.output.find(why), std::string::npos) << r.output;
    EXPECT_FALSE(fs::exists(m_dir / "m" / "custom.jsonl")) << "a refused merge wrote records";
  };
  // The same shard twice.
  fs::copy(m_dir / "s0", m_dir / "s0-again", fs::copy_options::recursive);
  refused({"s0", "s0-again", "s1"}, "overlapping shards");
  // A shard of another plan (another case), of another split, an unsharded folder.
  ASSERT_EQ(bench("other", "--shard 1/2 --case uniform:8K:p=0.5").code, 0);
  refused({"s0", "other"}, "different plans");
  ASSERT_EQ(bench("third", "--shard 1/3").code, 0);
  refused({"s0", "third"}, "one of 3");
  ASSERT_EQ(bench("whole").code, 0);
  refused({"s0", "whole"}, "is not of a sharded run");
  // A shard of another build: its status names another version.
  fs::copy(m_dir / "s1", m_dir / "s1-build", fs::copy_options::recursive);
  auto status = json_of(m_dir / "s1-build" / "custom.status.json");
  status["shard"]["winnow"] = "0000000";
  std::ofstream(m_dir / "s1-build" / "custom.status.json") << status.dump(2);
  refused({"s0", "s1-build"}, "different builds");
  // Records of another device.
  fs::copy(m_dir / "s1", m_dir / "s1-device", fs::copy_options::recursive);
  std::string records = text_of(m_dir / "s1-device" / "custom.jsonl");
  const auto at = records.find("\"device\":\"");
  ASSERT_NE(at, std::string::npos);
  records.insert(at + 10, "Another ");
  std::ofstream(m_dir / "s1-device" / "custom.jsonl") << records;
  refused({"s0", "s1-device"}, "one kind of device");

  // A missing shard is no error of the shards: the merged folder says it is incomplete, and
  // bench --resume there runs the rest into the records of one run.
  const result part = merge({"s0"});
  EXPECT_EQ(part.code, 1) << part.output;
  EXPECT_EQ(json_of(m_dir / "m" / "custom.status.json")["complete"], false);
  ASSERT_EQ(bench("m", "--resume").code, 0);
  EXPECT_EQ(keys(m_dir / "m" / "custom.jsonl").size(), keys(m_dir / "whole" / "custom.jsonl").size());
}

} // namespace
