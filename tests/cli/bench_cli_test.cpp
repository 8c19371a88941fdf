// `winnow bench` as nvbench and Google Benchmark users expect it: --param sweeps, glob filters,
// --list, --name, noise figures and --max-noise; and the small things: --version, list --api,
// "did you mean" for every kind of name.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "case_counts.hpp"
#include "run_winnow.hpp"

namespace {

namespace fs = std::filesystem;
using winnow_test::count;
using winnow_test::result;
using winnow_test::winnow;
using winnow_test::winnow_with;

class bench_cli : public testing::Test {
protected:
  void SetUp() override {
    m_dir = fs::temp_directory_path() / ("winnow_bench_cli_" + std::to_string(::getpid()));
    fs::create_directories(m_dir);
  }
  void TearDown() override { fs::remove_all(m_dir); }
  std::vector<nlohmann::json> records(const std::string& name) const {
    std::vector<nlohmann::json> out;
    std::ifstream in(m_dir / (name + ".jsonl"));
    for (std::string line; std::getline(in, line);) out.push_back(nlohmann::json::parse(line));
    return out;
  }
  fs::path m_dir;
};

void expect_usage_error(const std::string& args, const std::string& message) {
  const result r = winnow(args);
  EXPECT_EQ(r.code, 2) << args << "\n" << r.output;
  EXPECT_NE(r.output.find(message), std::string::npos) << args << "\n" << r.output;
}

/// Lines that start with `first` and contain `then`.
std::size_t lines_with(const std::string& text, const std::string& first, const std::string& then) {
  std::size_t n = 0;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    n += line.rfind(first, 0) == 0 && line.find(then) != std::string::npos;
  return n;
}

TEST_F(bench_cli, param_sweeps_every_selected_algorithm_with_the_key_as_a_product) {
  // cpu/stencil has threads and chunks, cpu/redzone threads and batches, cpu/par_remove_if and
  // cpu/preserve threads:
  // threads=1,2 doubles all four, chunks=1,4 doubles stencil again; sequential, remove_if and
  // scan_compact have neither.
  const result r = winnow("bench --algo 'cpu/*' --param threads=1,2 --param cpu/stencil:chunks=1,4 --case uniform:4K "
                          "--reps 2 --warmup 0 --warmup-time 0 --out " +
                          m_dir.string());
  ASSERT_EQ(r.code, 0) << r.output;
  const auto rows = records("custom"); // own cases, no --name: not the suite's name
  std::map<std::string, std::set<std::string>> seen;
  for (const auto& j : rows) {
    std::string p;
    for (const auto& [k, v] : j["params"].items()) p += k + "=" + v.get<std::string>() + ";";
    seen[j["algorithm"]].insert(p);
    // Every record carries its spread and noise.
    for (const char* key : {"stddev_ns", "q1_ns", "q3_ns", "noise"}) EXPECT_TRUE(j["total"].contains(key)) << key;
  }
  EXPECT_EQ(seen["cpu/sequential"].size(), 1u);
  EXPECT_EQ(seen["cpu/remove_if"].size(), 1u);
  EXPECT_EQ(seen["cpu/scan_compact"].size(), 1u);
  EXPECT_EQ(seen["cpu/par_remove_if"].size(), 2u);
  EXPECT_EQ(seen["cpu/redzone"].size(), 2u);
  EXPECT_EQ(seen["cpu/preserve"].size(), 2u);
  EXPECT_EQ(seen["cpu/stencil"], (std::set<std::string>{"chunks=1;threads=1;", "chunks=1;threads=2;",
                                                        "chunks=4;threads=1;", "chunks=4;threads=2;"}));
  EXPECT_EQ(rows.size(), 13u);
  // The progress lines say how far the bench is and how long the rest will take.
  EXPECT_NE(r.output.find("[13/13 "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(" left] "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("noise"), std::string::npos) << r.output;
}

TEST_F(bench_cli, list_prints_the_plan_and_runs_nothing) {
  const result r =
      winnow("bench --algo 'gl/*' --param block=32,256 --case uniform:1M --list --out " + (m_dir / "x").string());
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_FALSE(fs::exists(m_dir / "x")) << "--list writes nothing";
  if (r.output.find("gl: not run here") != std::string::npos) GTEST_SKIP() << "no GL context here: " << r.output;
  for (const char* algo : {"gl/horn ", "gl/jj ", "gl/rlz ", "gl/bt "}) {
    EXPECT_EQ(lines_with(r.output, algo, " block=32,"), 1u) << algo << "\n" << r.output;
    EXPECT_EQ(lines_with(r.output, algo, " block=256,"), 1u) << algo << "\n" << r.output;
  }
  // gl/adaptive, gl/histopyramid and gl/geometry have no block: each runs once, with its own parameters.
  EXPECT_EQ(lines_with(r.output, "gl/adaptive ", "model=pass,schedule=auto "), 1u) << r.output;
  EXPECT_EQ(lines_with(r.output, "gl/histopyramid ", " uniform:1M"), 1u) << r.output;
  EXPECT_EQ(lines_with(r.output, "gl/geometry ", " uniform:1M"), 1u) << r.output;
  EXPECT_NE(r.output.find("11 runs"), std::string::npos) << r.output;
}

TEST_F(bench_cli, list_estimates_what_cannot_run_here_as_where_its_device_is) {
  // Suite limit-redzone on cuda: 2 sizes × 2 k × 3 seeds × 4 algorithm sets (redzone2 twice: order off,
  // auto). Where no CUDA device is, --list still plans them, estimated as on a GPU: a login node can size
  // a Slurm campaign for GPU nodes it cannot run on itself.
  const result r = winnow("bench --suite limit-redzone --list --json");
  ASSERT_EQ(r.code, 0) << r.output;
  const auto j = nlohmann::json::parse(r.output);
  if (!j["not_run"].contains("cuda")) GTEST_SKIP() << "cuda runs here";
  EXPECT_EQ(j["records"], 0);
  EXPECT_EQ(j["elsewhere"]["records"], 48) << r.output;
  // At least the 48 records' busy time (30 ms each, the clock watched there); far less than a day.
  EXPECT_GT(j["elsewhere"]["seconds"].get<double>(), 48 * 0.030) << r.output;
  EXPECT_LT(j["elsewhere"]["seconds"].get<double>(), 86400) << r.output;
  const result text = winnow("bench --suite limit-redzone --list");
  EXPECT_NE(text.output.find("where they can run: 48 runs, an estimated "), std::string::npos) << text.output;
}

TEST_F(bench_cli, case_globs_pick_from_the_suite_and_name_picks_the_file) {
  const result all = winnow("bench --suite cpu --api cpu --list");
  const result some = winnow("bench --suite cpu --api cpu --case 'removal:128K:*' --case 'removal:1M:k=0.[19]' --list");
  ASSERT_EQ(some.code, 0) << some.output;
  EXPECT_EQ(count(all.output, "removal:"), 5u * 24u * 20u)
      << "(5 sizes × 4 densities + 4 add-and-remove cases) × 5 algorithms × 20 seeds, as the paper measures\n"
      << all.output;
  EXPECT_EQ(count(all.output, ":seed=20"), 5u * 24u) << all.output; // every case up to its 20th seed
  // 128K: four densities; 1M: k=0.1 and k=0.9 — six cases × five algorithms × 20 seeds.
  EXPECT_EQ(count(some.output, "removal:"), 5u * 6u * 20u) << some.output;
  EXPECT_EQ(count(some.output, "removal:8M"), 0u) << some.output;
  EXPECT_EQ(count(some.output, "removal:1M:k=0.5"), 0u) << some.output;
  EXPECT_NE(some.output.find("cpu.jsonl"), std::string::npos) << "a filtered suite keeps its name\n" << some.output;
  const result named =
      winnow("bench --algo cpu/sequential --case all:100 --name mine --reps 1 --warmup 0 --warmup-time 0 --out " +
             m_dir.string());
  ASSERT_EQ(named.code, 0) << named.output;
  EXPECT_TRUE(fs::exists(m_dir / "mine.jsonl"));
  EXPECT_TRUE(fs::exists(m_dir / "mine.csv"));
}

TEST_F(bench_cli, min_time_repeats_until_the_timed_runs_add_up_to_it) {
  // cpu/sequential over 64K elements takes well under 2 ms a run: 20 ms of measured time take more
  // than the 3 repetitions asked for.
  const result r = winnow("bench --algo cpu/sequential --case uniform:64K --reps 3 --min-time 20 --warmup 0 "
                          "--warmup-time 0 --out " +
                          m_dir.string());
  ASSERT_EQ(r.code, 0) << r.output;
  const auto rows = records("custom");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_DOUBLE_EQ(rows[0]["min_time_ms"].get<double>(), 20);
  const int reps = rows[0]["reps"].get<int>();
  EXPECT_GT(reps, 3);
  EXPECT_GE(reps * rows[0]["total"]["mean_ns"].get<double>(), 20e6);
  expect_usage_error("bench --min-time -1 --out " + m_dir.string(), "--min-time");
}

TEST_F(bench_cli, busy_time_is_checked_before_anything_runs_and_only_a_watched_device_keeps_it) {
  expect_usage_error("bench --busy-time -1 --out " + m_dir.string(), "--busy-time");
  expect_usage_error("run --algo cpu/sequential --case all:10 --busy-time 70000", "--busy-time");
  const std::string args = "bench --algo cpu/sequential --case uniform:4K --reps 2 --warmup 0 --warmup-time 0 "
                           "--busy-time 50 --out " +
                           m_dir.string();
  const result bad = winnow_with("WINNOW_BUSY=sometimes", args);
  EXPECT_EQ(bad.code, 2) << bad.output;
  EXPECT_NE(bad.output.find("WINNOW_BUSY must be timed or untimed, not 'sometimes'"), std::string::npos) << bad.output;
  EXPECT_FALSE(fs::exists(m_dir / "custom.jsonl")) << "a usage error leaves --out as it was";
  // The CPU has no clock to watch: its record runs what it was asked, and says nothing of busy time.
  const result r = winnow(args);
  ASSERT_EQ(r.code, 0) << r.output;
  const auto rows = records("custom");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0]["reps"].get<int>(), 2);
  EXPECT_EQ(rows[0]["warmup_runs"].get<int>(), 0);
  EXPECT_FALSE(rows[0].contains("busy_ms"));
}

TEST_F(bench_cli, max_noise_repeats_and_records_how_far_it_got) {
  const result r =
      winnow("bench --algo cpu/sequential --case uniform:64K --reps 3 --max-noise 50 --timeout 5 --warmup 0 "
             "--warmup-time 0 --out " +
             m_dir.string());
  ASSERT_EQ(r.code, 0) << r.output;
  const auto rows = records("custom");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_DOUBLE_EQ(rows[0]["max_noise"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(rows[0]["timeout_s"].get<double>(), 5);
  EXPECT_GE(rows[0]["reps"].get<int>(), 3);
  const double noise = rows[0]["total"]["noise"].get<double>();
  EXPECT_TRUE(noise <= 0.5 || r.output.find("(over)") != std::string::npos) << r.output;
  const result run = winnow("run --algo cpu/sequential --case all:1000 --reps 3 --max-noise 90");
  EXPECT_EQ(run.code, 0) << run.output;
  EXPECT_NE(run.output.find("noise "), std::string::npos) << run.output;
}

TEST_F(bench_cli, bad_sweeps_and_filters_are_usage_errors_with_a_suggestion) {
  const std::string out = " --list --out " + m_dir.string();
  expect_usage_error("bench --algo 'cpu/*' --param thread=1,2" + out,
                     "no selected algorithm has this parameter (did you mean 'threads'?)");
  expect_usage_error("bench --algo cpu/redzone --param cpu/redzone:chunks=2" + out,
                     "cpu/redzone: unknown parameter 'chunks'");
  expect_usage_error("bench --algo 'cpu/*' --param threads=1,,2" + out, "has an empty value");
  expect_usage_error("bench --algo 'cpu/*' --param threads" + out, "is not [ALGORITHM:]KEY=V1,V2");
  expect_usage_error("bench --algo 'cpu/*' --param threads=0" + out, "threads='0' is not accepted");
  expect_usage_error("bench --algo 'metal/*'" + out, "--algo 'metal/*' matches no algorithm");
  expect_usage_error("bench --algo cpu/redzon" + out, "did you mean 'cpu/redzone'?");
  expect_usage_error("bench --suite cpu --case 'nothing:*'" + out, "--case 'nothing:*' matches none of suite cpu's");
  expect_usage_error("bench --suite cpx" + out, "did you mean 'cpu'?");
  expect_usage_error("bench --algo cpu/sequential --name ../up" + out, "--name must be a plain file name");
  expect_usage_error("bench --timeout 3" + out, "--timeout requires --max-noise");
  expect_usage_error("run --algo cpu/sequential --case unifrom:10", "did you mean 'uniform'?");
  expect_usage_error("run --algo cpu/sequential --case uniform:10:q=0.5",
                     "unknown key 'q' for uniform (did you mean 'p'?)");
  expect_usage_error("run --algo cpu/redzone --case all:10 --param batch=2", "did you mean 'batches'?");
  expect_usage_error("lsit", "did you mean 'list'?");
  expect_usage_error("list --api cdua", "unknown api 'cdua' (did you mean 'cuda'?)");
}

TEST_F(bench_cli, version_and_list_api) {
  const result v = winnow("--version");
  EXPECT_EQ(v.code, 0);
  EXPECT_EQ(v.output.rfind("winnow ", 0), 0u) << v.output;
  const result cpu = winnow("list --api cpu");
  ASSERT_EQ(cpu.code, 0) << cpu.output;
  EXPECT_NE(cpu.output.find("cpu/redzone"), std::string::npos);
  EXPECT_EQ(cpu.output.find("gl/horn"), std::string::npos) << cpu.output;
  EXPECT_EQ(cpu.output.find("suites"), std::string::npos) << cpu.output;
  const auto j = nlohmann::json::parse(winnow("list --api cpu --json").output);
  ASSERT_EQ(j["backends"].size(), 1u);
  EXPECT_EQ(j["backends"][0]["api"], "cpu");
}

TEST_F(bench_cli, compare_flags_only_changes_beyond_the_noise) {
  ASSERT_EQ(winnow("bench --algo cpu/sequential,cpu/remove_if --case all:1000 --case none:1000 --reps 3 --warmup 0 "
                   "--warmup-time 0 --name before --out " +
                   m_dir.string())
                .code,
            0);
  // "before" with 1 % noise, whatever this machine measured (under ASan on two busy cores, 105 %);
  // "after": sequential on all:1000 twice as slow with 1 % noise, remove_if on it 1 % faster with
  // 5 % noise (the same within noise), one record gone and one new.
  std::ofstream before(m_dir / "before-1pc.jsonl");
  for (auto j : records("before")) {
    j["total"]["stddev_ns"] = 0.01 * j["total"]["median_ns"].get<double>();
    before << j.dump() << "\n";
  }
  before.close();
  std::ofstream after(m_dir / "after.jsonl");
  for (auto j : records("before")) {
    const bool all = j["case"].get<std::string>().starts_with("all:");
    if (j["algorithm"] == "cpu/sequential" && !all) continue; // only before
    double scale = 1, stddev = 0.01;
    if (j["algorithm"] == "cpu/sequential") scale = 2;
    else if (all) scale = 0.99, stddev = 0.05;
    const double median = j["total"]["median_ns"].get<double>() * scale;
    // Every time scaled alike: compare refuses a record whose median is outside its min … max.
    for (const char* field : {"median_ns", "min_ns", "max_ns", "q1_ns", "q3_ns"})
      j["total"][field] = j["total"][field].get<double>() * scale;
    j["total"]["mean_ns"] = median;
    j["total"]["stddev_ns"] = stddev * median;
    after << j.dump() << "\n";
    if (j["algorithm"] == "cpu/remove_if" && all) {
      j["case"] = "all:2000"; // only after
      j["n"] = 2000;
      after << j.dump() << "\n";
    }
  }
  after.close();
  const result r = winnow("compare " + (m_dir / "before-1pc.jsonl").string() + " " + (m_dir / "after.jsonl").string());
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_EQ(lines_with(r.output, "cpu/sequential", "2.000"), 1u) << r.output;
  EXPECT_EQ(lines_with(r.output, "cpu/sequential", "slower"), 1u) << r.output;
  EXPECT_EQ(lines_with(r.output, "cpu/remove_if ", "same"), 2u) << r.output;
  EXPECT_NE(r.output.find("3 records compared: 0 faster, 1 slower, 2 the same"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("only before: cpu/sequential"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("only after: cpu/remove_if"), std::string::npos) << r.output;
  // A folder compares its final files, each record once: here before.jsonl and before-1pc.jsonl hold
  // the same records, which cannot be matched one to one. Bad input is a usage error.
  const result folder = winnow("compare " + m_dir.string() + " " + (m_dir / "after.jsonl").string());
  EXPECT_EQ(folder.code, 2) << folder.output;
  EXPECT_NE(folder.output.find("is a second record of"), std::string::npos) << folder.output;
  fs::create_directories(m_dir / "one");
  fs::copy_file(m_dir / "before-1pc.jsonl", m_dir / "one" / "before-1pc.jsonl");
  EXPECT_EQ(winnow("compare " + (m_dir / "one").string() + " " + (m_dir / "after.jsonl").string()).code, 0);
  EXPECT_EQ(winnow("compare " + (m_dir / "nope").string() + " " + m_dir.string()).code, 2);
}

TEST_F(bench_cli, compare_meets_a_default_that_became_auto_by_what_it_ran) {
  // cuda/lookback's tile and pause were 128x16m4 and 2000 by default; now "auto", and the record says
  // what its device chose. A record from before meets one from after where they ran the same.
  ASSERT_EQ(winnow("bench --algo cpu/sequential --case all:1000 --case none:1000 --reps 3 --warmup 0 "
                   "--warmup-time 0 --name base --out " +
                   m_dir.string())
                .code,
            0);
  const auto as_lookback = [](nlohmann::json j, const char* tile, const char* pause) {
    j["algorithm"] = "cuda/lookback";
    j["api"] = "cuda";
    j["params"] = {{"element", "32"}, {"place", "out"},  {"tile", tile},     {"wait", "sleep"},
                   {"pause", pause},  {"prefetch", "2"}, {"store", "staged"}};
    return j;
  };
  std::ofstream before(m_dir / "old.jsonl"), after(m_dir / "new.jsonl");
  for (const auto& j : records("base")) {
    before << as_lookback(j, "128x16m4", "2000").dump() << "\n";
    auto now = as_lookback(j, "auto", "auto");
    // On all:1000 the probe chose the old default; on none:1000 (as another process might) not.
    const bool all = j["case"].get<std::string>().starts_with("all:");
    now["chosen"] = {{"tile", all ? "128x16m4" : "128x16m5"}, {"pause", all ? "2000" : "3000"}};
    after << now.dump() << "\n";
  }
  before.close();
  after.close();
  const result r = winnow("compare " + (m_dir / "old.jsonl").string() + " " + (m_dir / "new.jsonl").string());
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("1 records compared"), std::string::npos) << r.output;
  EXPECT_EQ(lines_with(r.output, "cuda/lookback", "tile=auto,wait=sleep (ran pause=2000,tile=128x16m4)"), 1u)
      << r.output;
  EXPECT_NE(r.output.find("only before: cuda/lookback  element=32,pause=2000"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("only after: cuda/lookback  element=32,pause=auto"), std::string::npos) << r.output;
}

} // namespace

TEST_F(bench_cli, seeds_run_each_seeded_case_n_times_and_summarize_them) {
  const result r =
      winnow("bench --api cpu --algo cpu/sequential,cpu/redzone --case removal:4096:k=0.1:seed=5 --case all:100 "
             "--seeds 3 --reps 2 --warmup 0 --warmup-time 0 --name s --out " +
             m_dir.string());
  ASSERT_EQ(r.code, 0) << r.output;
  const auto rows = records("s");
  ASSERT_EQ(rows.size(), 8u) << "2 algorithms × (3 seeds of the removal case + all:100 once)";
  std::set<std::string> cases;
  for (const auto& j : rows) cases.insert(j["case"].get<std::string>());
  EXPECT_EQ(cases, (std::set<std::string>{"removal:4K:k=0.1:r=uniform:seed=5", "removal:4K:k=0.1:r=uniform:seed=6",
                                          "removal:4K:k=0.1:r=uniform:seed=7", "all:100"}))
      << "seeds 5, 6, 7 of the removal case";
  const auto summaries = records("s.seeds");
  ASSERT_EQ(summaries.size(), 2u) << "one per algorithm; all:100 has no seed";
  for (const auto& s : summaries) {
    EXPECT_EQ(s["case"], "removal:4K:k=0.1:r=uniform");
    EXPECT_EQ(s["seeds"], nlohmann::json({5, 6, 7}));
    const double log_mean = s["total"]["log_mean_ns"], lo = s["total"]["min_ns"], hi = s["total"]["max_ns"];
    EXPECT_GT(log_mean, 0);
    EXPECT_LE(lo, log_mean * (1 + 1e-9));
    EXPECT_GE(hi, log_mean * (1 - 1e-9));
  }
  EXPECT_TRUE(fs::exists(m_dir / "s.seeds.csv"));
  EXPECT_NE(r.output.find("total (log mean)"), std::string::npos) << r.output;

  expect_usage_error("bench --api cpu --case all:10 --seeds 0 --out " + m_dir.string(), "--seeds");
  expect_usage_error("bench --api cpu --case uniform:10:seed=4294967295 --seeds 2 --out " + m_dir.string(),
                     "past 2^32 - 1");
}

TEST_F(bench_cli, each_record_is_of_the_case_it_names_though_cases_are_made_in_batches) {
  // bench makes its cases a batch ahead on all cores; each record must still count its own case. The
  // seeds of one spec differ only in how many elements are valid, the specs in everything.
  const auto expect_own_counts = [&](const std::vector<nlohmann::json>& rows) {
    for (const auto& j : rows) {
      const auto c = winnow_test::counts_of(j["case"].get<std::string>());
      EXPECT_EQ(j["n"], c.n) << j["case"];
      EXPECT_EQ(j["removals"], c.removals) << j["case"];
      EXPECT_EQ(j["valid"], c.kept) << j["case"];
      EXPECT_EQ(j["kept"], c.kept) << j["case"];
      EXPECT_TRUE(j["verified"].get<bool>()) << j["case"];
      // Where the record's host time went: every step, the wait for its case too (kept when resumed).
      ASSERT_TRUE(j.contains("host_ms")) << j["case"];
      std::set<std::string> steps;
      for (const auto& [step, ms] : j.at("host_ms").items()) steps.insert(step);
      EXPECT_EQ(steps, (std::set<std::string>{"make", "prepare", "runs", "result", "check", "release"})) << j["case"];
      EXPECT_GT(j.at("host_ms").at("runs").get<double>(), 0) << j["case"];
    }
  };
  const std::string sweep = "bench --api cpu --algo cpu/sequential --case uniform:5000:p=0.5 --case removal:3001:k=0.3 "
                            "--case runs:7000 --reps 1 --warmup 0 --warmup-time 0 --name b --out " +
                            m_dir.string();
  const result some = winnow(sweep + " --seeds 2");
  ASSERT_EQ(some.code, 0) << some.output;
  ASSERT_EQ(records("b").size(), 6u);
  expect_own_counts(records("b"));
  // Resumed with more seeds, only the cases without a record are made: the batches skip the others.
  const result all = winnow(sweep + " --seeds 5 --resume");
  ASSERT_EQ(all.code, 0) << all.output;
  const auto rows = records("b");
  ASSERT_EQ(rows.size(), 15u);
  std::set<std::string> cases;
  for (const auto& j : rows) cases.insert(j["case"].get<std::string>());
  EXPECT_EQ(cases.size(), 15u);
  expect_own_counts(rows);
  std::set<std::size_t> valid_counts;
  for (const auto& j : rows)
    if (j["case"].get<std::string>().starts_with("uniform")) valid_counts.insert(j["valid"].get<std::size_t>());
  EXPECT_GT(valid_counts.size(), 1u) << "the test needs seeds whose counts differ";
}

TEST_F(bench_cli, host_ms_charges_the_wait_for_a_case_to_its_first_record) {
  // Summed over the records, host_ms must give the bench's own time: the wait for a case (its batch
  // made) is on the case's first record, and 0 on the next algorithm's record of the same case.
  const result r = winnow("bench --api cpu --algo cpu/sequential,cpu/remove_if --case uniform:300000:p=0.5 "
                          "--case runs:200000 --reps 1 --warmup 0 --warmup-time 0 --name w --out " +
                          m_dir.string());
  ASSERT_EQ(r.code, 0) << r.output;
  std::ifstream in(m_dir / "w.jsonl");
  std::map<std::string, std::vector<double>> made; // case -> make of its records, in order
  for (std::string line; std::getline(in, line);) {
    const auto j = nlohmann::ordered_json::parse(line);
    std::vector<std::string> steps;
    for (const auto& [step, ms] : j.at("host_ms").items()) steps.push_back(step);
    EXPECT_EQ(steps, (std::vector<std::string>{"make", "prepare", "runs", "result", "check", "release"}));
    made[j.at("case").get<std::string>()].push_back(j.at("host_ms").at("make").get<double>());
  }
  ASSERT_EQ(made.size(), 2u);
  for (const auto& [name, ms] : made) {
    ASSERT_EQ(ms.size(), 2u) << name;
    EXPECT_GT(ms[0], 0) << name << ": the first record carries the wait for its case";
    EXPECT_EQ(ms[1], 0) << name << ": the second record waited for nothing";
  }
}

TEST_F(bench_cli, a_suites_seeds_apply_unless_the_command_line_says_otherwise) {
  const fs::path suite = m_dir / "seeded.json";
  std::ofstream(suite) << R"({"name": "seeded", "apis": ["cpu"], "algorithms": ["cpu/sequential"],
    "cases": ["uniform:1000:p=0.5", "all:10"], "seeds": 3, "reps": 1, "warmup": 0, "warmup_ms": 0})";
  const result r = winnow("bench --suite " + suite.string() + " --out " + m_dir.string());
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_EQ(records("seeded").size(), 4u) << "3 seeds of the uniform case and all:10";
  EXPECT_EQ(records("seeded.seeds").size(), 1u);
  const result one = winnow("bench --suite " + suite.string() + " --seeds 1 --name once --out " + m_dir.string());
  ASSERT_EQ(one.code, 0) << one.output;
  EXPECT_EQ(records("once").size(), 2u);
  EXPECT_FALSE(fs::exists(m_dir / "once.seeds.jsonl")) << "no summary for one seed";
}

TEST_F(bench_cli, a_suite_may_list_grids_that_run_one_after_another) {
  const fs::path suite = m_dir / "grids.json";
  std::ofstream(suite) << R"({"name": "grids", "apis": ["cpu"], "algorithms": ["cpu/redzone"], "cases": ["all:10"],
    "params": {"cpu/redzone": [{"threads": ["1"], "batches": ["1", "3"]}, {"threads": ["2"], "batches": ["3"]}, {"batches": ["3"]}]}})";
  const result r = winnow("bench --suite " + suite.string() + " --list");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_EQ(lines_with(r.output, "cpu/redzone", "batches=1,threads=1"), 1u) << r.output;
  EXPECT_EQ(lines_with(r.output, "cpu/redzone", "batches=3,threads=1"), 1u) << r.output;
  EXPECT_EQ(lines_with(r.output, "cpu/redzone", "batches=3,threads=2"), 1u) << "a set two grids give runs once\n"
                                                                            << r.output;
  EXPECT_NE(r.output.find("3 runs"), std::string::npos) << r.output;
  // A --param sweep applies inside every grid.
  const result swept = winnow("bench --suite " + suite.string() + " --param batches=4 --list");
  ASSERT_EQ(swept.code, 0) << swept.output;
  EXPECT_EQ(lines_with(swept.output, "cpu/redzone", "batches=4"), 2u) << swept.output;
}
