// Hostile input against the newer commands (compare, bench --resume, reproduce, trace): each is
// refused with exit 2 naming the bad part, writes nothing outside --out, and gives no silently wrong
// answer (issue 57).
#include <gtest/gtest.h>
#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

#include <fcntl.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <thread>

#include "run_winnow.hpp"

namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using winnow_test::result;
using winnow_test::start;
using winnow_test::winnow;

class hostile : public testing::Test {
protected:
  void SetUp() override {
    m_dir = fs::temp_directory_path() / ("winnow_hostile_" + std::to_string(::getpid()));
    fs::remove_all(m_dir);
    fs::create_directories(m_dir);
  }
  void TearDown() override { fs::remove_all(m_dir); }

  std::string path(const std::string& name) const { return (m_dir / name).string(); }

  /// A real record, as `winnow run` writes it, parsed.
  json a_record() {
    if (m_record.is_null()) {
      const result r = winnow("run --algo cpu/sequential --case uniform:1K:p=0.5 --reps 3 --warmup-time 0 --out " +
                              path("one.jsonl"));
      EXPECT_EQ(r.code, 0) << r.output;
      std::ifstream in(path("one.jsonl"));
      std::string line;
      std::getline(in, line);
      m_record = json::parse(line);
    }
    return m_record;
  }

  /// Writes records (one a line) to NAME.
  std::string write_records(const std::string& name, const std::vector<json>& records) {
    std::ofstream out(path(name));
    for (const auto& r : records) out << r.dump() << "\n";
    return path(name);
  }

  void expect_refused(const std::string& args, const std::string& message) {
    const result r = winnow(args);
    EXPECT_EQ(r.code, 2) << args << "\n" << r.output;
    EXPECT_NE(r.output.find(message), std::string::npos) << args << "\n" << r.output;
  }

  fs::path m_dir;
  json m_record;
};

std::string read_all(const fs::path& p) {
  std::ifstream in(p);
  return {std::istreambuf_iterator<char>(in), {}};
}

// ---- compare -----------------------------------------------------------------------------------

TEST_F(hostile, compare_matches_records_one_to_one) {
  // A folder compared with itself: every record the same, none twice.
  ASSERT_EQ(winnow("bench --suite cpu --seeds 1 --case uniform:1K --case removal:1K --reps 3 --warmup-time 0 --out " +
                   path("b"))
                .code,
            0);
  const result same = winnow("compare " + path("b") + " " + path("b"));
  EXPECT_EQ(same.code, 0) << same.output;
  EXPECT_NE(same.output.find("10 records compared: 0 faster, 0 slower, 10 the same"), std::string::npos) << same.output;

  // Two benches in one folder may share records (a reproduction's moreira and adaptive): matched file
  // by file, each file's against the same file's.
  ASSERT_EQ(
      winnow("bench --suite cpu --seeds 1 --case uniform:1K --reps 3 --warmup-time 0 --name again --out " + path("b"))
          .code,
      0);
  const result shared = winnow("compare " + path("b") + " " + path("b"));
  EXPECT_EQ(shared.code, 0) << shared.output;
  EXPECT_NE(shared.output.find("15 records compared: 0 faster, 0 slower, 15 the same"), std::string::npos)
      << shared.output;

  // Two records of one key on one side cannot be matched one to one.
  const std::string twice = write_records("twice.jsonl", {a_record(), a_record()});
  expect_refused("compare " + twice + " " + path("one.jsonl"), "is a second record of cpu/sequential");
}

TEST_F(hostile, bench_plans_a_repeated_case_once_and_says_so) {
  const std::string bench = "bench --suite cpu --algo cpu/sequential --reps 1 --warmup-time 0 ";
  const std::vector<std::pair<std::string, std::string>> repeated = {
      {"--seeds 1 --case all:100 --case all:100", "case all:100 is the case all:100 again; it runs once"},
      // The same case in two spellings (seed 1 is the default).
      {"--seeds 1 --case uniform:1K --case uniform:1K:seed=1",
       "is the case uniform:1K again (both are uniform:1K:p=0.5:seed=1); it runs once"},
      // --seeds 2 makes seeds 1 and 2 of the first case: the second case's seed 2 again.
      {"--seeds 2 --case uniform:1K:seed=1 --case uniform:1K:seed=2",
       "case uniform:1K:p=0.5:seed=2 is the case uniform:1K:p=0.5:seed=2 again"},
  };
  for (const auto& [args, message] : repeated) {
    fs::remove_all(path("b"));
    const result r = winnow(bench + args + " --out " + path("b"));
    EXPECT_EQ(r.code, 0) << args << "\n" << r.output;
    EXPECT_NE(r.output.find(message), std::string::npos) << args << "\n" << r.output;
    std::map<std::string, int> records;
    std::ifstream in(path("b/cpu.jsonl"));
    for (std::string line; std::getline(in, line);) ++records[json::parse(line)["case"].get<std::string>()];
    for (const auto& [c, n] : records) EXPECT_EQ(n, 1) << args << ": " << c;
  }
}

TEST_F(hostile, compare_reads_a_seeds_bench_and_skips_other_kinds_by_name) {
  ASSERT_EQ(
      winnow("bench --suite cpu --algo cpu/sequential --seeds 2 --case uniform:1K --reps 3 --warmup-time 0 --out " +
             path("s"))
          .code,
      0);
  ASSERT_TRUE(fs::exists(path("s/cpu.seeds.jsonl")));
  // A calibration file as `calibrate --out` writes it.
  std::ofstream(path("s/calibrate.jsonl"))
      << R"({"api":"gl","device":"x","driver":"y","name":"empty_pass_ns","value":5064.32,"unit":"ns","how":"z"})"
      << "\n";
  const result r = winnow("compare " + path("s") + " " + path("s"));
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("2 records compared"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("skipped " + path("s/cpu.seeds.jsonl") + " (seed summaries, not records)"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("skipped " + path("s/calibrate.jsonl") + " (calibration, not records)"), std::string::npos)
      << r.output;
  // Named on its own, a file of another kind is refused by what it is.
  expect_refused("compare " + path("s/cpu.seeds.jsonl") + " " + path("s"), "holds seed summaries, not records");
}

TEST_F(hostile, compare_and_resume_refuse_impossible_records) {
  const json good = a_record();
  struct bad_case {
    std::function<void(json&)> change;
    std::string message;
  };
  const std::vector<bad_case> bad = {
      {[](json& j) { j["total"]["median_ns"] = -5.0; }, "\"total\" holds -5"},
      {[](json& j) {
         j["total"]["min_ns"] = 0.0;
         j["total"]["q1_ns"] = 0.0;
         j["total"]["median_ns"] = 0.0;
       },
       "must be more than 0"},
      {[](json& j) { j["total"]["median_ns"] = j["total"]["max_ns"].get<double>() * 2; },
       "min ≤ q1 ≤ median ≤ q3 ≤ max"},
      {[](json& j) { j["n"] = 7; }, "\"n\" 7 is not the case's 1024"},
      {[](json& j) {
         j["params"] = {{"threads", "2"}};
       },
       "\"params\""},
      {[](json& j) { j["algorithm"] = "cpu/nope"; }, "no algorithm of this build's cpu backend"},
      {[](json& j) { j["case"] = "uniform:1K:seed=1:p=0.5"; }, "is not canonical"},
      {[](json& j) { j["kept"] = 3; }, "verified, but \"kept\" 3"},
      {[](json& j) { j["reps"] = 0; }, "\"reps\" is 0"},
  };
  for (const auto& [change, message] : bad) {
    json j = good;
    change(j);
    const std::string file = write_records("bad.jsonl", {j});
    expect_refused("compare " + file + " " + path("one.jsonl"), file + ":1: ");
    expect_refused("compare " + path("one.jsonl") + " " + file, message);
    // --resume reads the same way: the record as an earlier run's final file.
    fs::create_directories(path("r"));
    write_records("r/cpu.jsonl", {j});
    expect_refused("bench --suite cpu --seeds 1 --algo cpu/sequential --case uniform:1K:p=0.5 --resume --out " +
                       path("r"),
                   message);
  }
}

TEST_F(hostile, resume_refuses_records_outside_the_plan) {
  fs::create_directories(path("r"));
  json other = a_record();
  other["case"] = "uniform:2K:p=0.5:seed=1";
  other["n"] = 2048;
  write_records("r/cpu.jsonl", {a_record(), other});
  expect_refused("bench --suite cpu --seeds 1 --algo cpu/sequential --case uniform:1K:p=0.5 --resume --out " +
                     path("r"),
                 "holds a record that this bench does not plan: cpu/sequential  uniform:2K:p=0.5:seed=1");
  // A record twice in one file is refused too.
  write_records("r/cpu.jsonl", {a_record(), a_record()});
  expect_refused("bench --suite cpu --seeds 1 --algo cpu/sequential --case uniform:1K:p=0.5 --resume --out " +
                     path("r"),
                 "cpu.jsonl:2: a second record of cpu/sequential");
}

TEST_F(hostile, huge_times_keep_their_unit) {
  json j = a_record();
  for (const char* field : {"median_ns", "min_ns", "max_ns", "mean_ns", "q1_ns", "q3_ns"}) j["total"][field] = 1e40;
  j["total"]["stddev_ns"] = 0.0;
  const std::string file = write_records("huge.jsonl", {j});
  const result r = winnow("compare " + path("one.jsonl") + " " + file);
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("1e+31 s"), std::string::npos) << r.output;
  EXPECT_FALSE(std::regex_search(r.output, std::regex("[0-9]{16}"))) << r.output;
}

// ---- --out: links, names, locks, leftovers -----------------------------------------------------

TEST_F(hostile, links_inside_out_are_not_followed) {
  const std::string bench =
      "bench --suite cpu --algo cpu/sequential --case all:100 --reps 1 --warmup-time 0 --out " + path("o");
  fs::create_directories(path("o"));
  fs::create_symlink(path("outside-lock"), path("o/.winnow.lock"));
  expect_refused(bench, ".winnow.lock is a symbolic link");
  expect_refused("reproduce cpu --out " + path("o"), ".winnow.lock is a symbolic link");
  EXPECT_FALSE(fs::exists(path("outside-lock")));
  fs::remove(path("o/.winnow.lock"));

  fs::create_symlink(path("outside-journal"), path("o/cpu.journal.jsonl"));
  expect_refused(bench, "cpu.journal.jsonl is a symbolic link");
  EXPECT_FALSE(fs::exists(path("outside-journal")));
  EXPECT_FALSE(fs::exists(path("o/.winnow.lock"))) << "a refused run leaves no lock";
  fs::remove(path("o/cpu.journal.jsonl"));

  // A folder where the lock belongs is named as the lock.
  fs::create_directories(path("o/.winnow.lock"));
  expect_refused(bench, "cannot open the lock " + path("o/.winnow.lock"));
}

TEST_F(hostile, a_results_name_cannot_be_another_runs_file) {
  for (const char* name : {"x.journal", "x.seeds", "x.status"})
    expect_refused("bench --suite cpu --case all:100 --name " + std::string(name) + " --out " + path("o"), "ends in ");
  expect_refused("bench --suite cpu --case all:100 --name " + std::string(300, 'a') + " --out " + path("o"),
                 "is 300 characters long; at most 200");
  EXPECT_FALSE(fs::exists(path("o")));
}

TEST_F(hostile, bench_refuses_a_repeated_param_key) {
  expect_refused(
      "bench --suite cpu --algo cpu/par_remove_if --case all:100 --param threads=1 --param threads=2 --out " +
          path("o"),
      "--param threads is given twice for cpu/par_remove_if (threads=1 and threads=2)");
  expect_refused(
      "bench --suite cpu --algo cpu/par_remove_if --case all:100 --param threads=1 --param 'cpu/*:threads=2' --out " +
          path("o"),
      "given twice");
}

TEST_F(hostile, a_usage_error_leaves_no_out_folder) {
  expect_refused("bench --suite cpu --case 'nomatch*' --out " + path("o"), "matches none");
  EXPECT_FALSE(fs::exists(path("o")));
  expect_refused("bench --suite cpu --param threads=1,,2 --case all:100 --out " + path("o"), "empty value");
  EXPECT_FALSE(fs::exists(path("o")));
  // An existing folder keeps what it held, and gets no lock.
  fs::create_directories(path("kept"));
  expect_refused("bench --suite cpu --case 'nomatch*' --out " + path("kept"), "matches none");
  EXPECT_TRUE(fs::is_directory(path("kept")));
  EXPECT_FALSE(fs::exists(path("kept/.winnow.lock")));
}

TEST_F(hostile, suite_filters_name_the_key_and_value_that_select_nothing) {
  const auto suite_with = [&](const std::string& body) {
    std::ofstream(path("s.json")) << R"({"name": "x", "cases": ["all:100"], )" << body << "}";
    return "bench --suite " + path("s.json") + " --out " + path("o");
  };
  expect_refused(suite_with(R"("algorithms": ["nope/x"])"),
                 "suite " + path("s.json") + ": \"algorithms\": unknown algorithm 'nope/x'");
  expect_refused(suite_with(R"("algorithms": ["cpu/zz*"])"), "\"algorithms\": 'cpu/zz*' matches no algorithm");
  expect_refused(suite_with(R"("apis": ["nope"])"), "\"apis\": unknown api 'nope'");
  expect_refused(suite_with(R"("params": {"cpu/par_remove_if": {"threads": []}})"), "\"threads\" lists no value");
  // A glob in "algorithms" selects as --algo does.
  const result r = winnow(suite_with(R"("algorithms": ["cpu/seq*"])") + " --list");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("cpu/sequential"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(path("o")));
}

TEST_F(hostile, an_unwritable_output_file_is_refused_before_the_work) {
  // /proc takes no new file, whoever runs the test (root included).
  expect_refused("run --algo cpu/sequential --case all:10 --out /proc/r.jsonl",
                 "--out /proc/r.jsonl: cannot write into /proc");
  expect_refused("corpus all:10 --out /proc/x.png", "cannot write into /proc");
  const auto t0 = std::chrono::steady_clock::now();
  expect_refused("calibrate --api gl --out /proc/c.jsonl", "cannot write into /proc");
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 5.0)
      << "refused before calibrating";
}

TEST_F(hostile, view_refuses_a_screenshot_without_a_name) {
  const result r = winnow("view --algo gl/horn --case all:100 --script 'screenshot:,quit'");
  if (r.output.find("not built") != std::string::npos) GTEST_SKIP() << r.output;
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("empty file name"), std::string::npos) << r.output;
}

// ---- trace -------------------------------------------------------------------------------------

TEST_F(hostile, trace_ranges_come_from_written_words_and_old_pictures_go) {
  for (const char* algo : {"vk/horn", "vkfrag/horn"}) {
    // No valid element: the output holds no survivor, so its range is 0 … 0 whatever the memory held.
    const std::string out = path(std::string(algo).replace(2, 1, "_"));
    const result r = winnow("trace --algo " + std::string(algo) + " --case uniform:4K:p=0 --out " + out);
    if (r.code == 1 && r.output.find("cannot run here") != std::string::npos) {
      std::cerr << algo << ": " << r.output;
      continue;
    }
    ASSERT_EQ(r.code, 0) << r.output;
    const json j = json::parse(std::ifstream(out + "/trace.json"));
    EXPECT_EQ(j["passes"].back()["min"], 0) << algo;
    EXPECT_EQ(j["passes"].back()["max"], 0) << algo;
  }
  // Tracing into an old trace's folder leaves one trace: trace.json lists every picture there.
  const std::string out = path("t");
  const result first = winnow("trace --algo gl/rlz --case runs:5000 --out " + out);
  if (first.code == 1 && first.output.find("cannot run here") != std::string::npos) GTEST_SKIP() << first.output;
  ASSERT_EQ(first.code, 0) << first.output;
  std::ofstream(out + "/mine.png") << "the user's own";
  ASSERT_EQ(winnow("trace --algo gl/horn --case all:100 --out " + out).code, 0);
  const json j = json::parse(std::ifstream(out + "/trace.json"));
  std::size_t pictures = 0;
  for (const auto& e : fs::directory_iterator(out)) pictures += e.path().extension() == ".png";
  EXPECT_EQ(pictures, j["passes"].size() + 2) << "the passes, contact.png and mine.png";
  EXPECT_TRUE(fs::exists(out + "/mine.png"));
}

// ---- reproduce ---------------------------------------------------------------------------------

TEST_F(hostile, reproduce_checks_its_folder_before_any_work) {
  fs::create_directories(path("r/cpu"));
  std::ofstream(path("r/cpu/cpu.status.json")) << "{\"complete\": tru";
  expect_refused("reproduce cpu --out " + path("r"), path("r/cpu/cpu.status.json") + " is not a status file");
  fs::remove_all(path("r"));

  fs::create_directories(path("r"));
  std::ofstream(path("r/cpu")) << "a file where the cpu records go";
  expect_refused("reproduce cpu --out " + path("r"), path("r/cpu") + " is not a folder");
  fs::remove_all(path("r"));

  fs::create_directories(path("r/report.md"));
  expect_refused("reproduce cpu --out " + path("r"), path("r/report.md") + " is a folder");
  EXPECT_FALSE(fs::exists(path("r/report.md.tmp")));
  EXPECT_FALSE(fs::exists(path("r/cpu"))) << "nothing ran";
  fs::remove_all(path("r"));

  // Another paper's reproduction is kept, not replaced.
  fs::create_directories(path("r"));
  std::ofstream(path("r/reproduce.json")) << R"({"papers": ["moreira"], "steps": []})";
  expect_refused("reproduce cpu --out " + path("r"), "holds the reproduction of moreira");
  std::ofstream(path("r/reproduce.json")) << "[";
  expect_refused("reproduce cpu --out " + path("r"), "reproduce.json is not a manifest");
}

TEST_F(hostile, reproduce_exits_with_128_plus_the_signal) {
  const pid_t pid = start({"reproduce", "cpu", "--out", path("r")}, m_dir / "log");
  const fs::path journal = m_dir / "r" / "cpu" / "cpu.journal.jsonl";
  for (int i = 0; i < 6000 && !(fs::exists(journal) && fs::file_size(journal) > 0); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_TRUE(fs::exists(journal)) << read_all(m_dir / "log");
  ::kill(pid, SIGTERM);
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status)) << read_all(m_dir / "log");
  EXPECT_EQ(WEXITSTATUS(status), 128 + SIGTERM) << read_all(m_dir / "log");
  const json manifest = json::parse(std::ifstream(m_dir / "r" / "reproduce.json"));
  EXPECT_EQ(manifest["steps"][0]["status"], "interrupted");
}

} // namespace
