// What `winnow bench` leaves in --out when it is interrupted, resumed, or raced by another process;
// suite files checked whole at load; output names checked before any work.
#include <gtest/gtest.h>
#include <csignal>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fcntl.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <thread>

#include "run_winnow.hpp"

namespace {

namespace fs = std::filesystem;

using winnow_test::result;
using winnow_test::start;
using winnow_test::winnow;

int wait_for(pid_t pid) {
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::size_t lines_in(const fs::path& p) {
  std::ifstream in(p);
  std::size_t n = 0;
  for (std::string line; std::getline(in, line);) n += !line.empty();
  return n;
}

/// Waits (up to a minute) until the file holds at least `n` lines.
bool wait_for_lines(const fs::path& p, std::size_t n) {
  for (int i = 0; i < 6000; ++i) {
    if (lines_in(p) >= n) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

/// What must be equal between runs: which records there are and what they found (not their times).
std::map<std::string, std::string> outcomes(const fs::path& jsonl) {
  std::map<std::string, std::string> out;
  std::ifstream in(jsonl);
  for (std::string line; std::getline(in, line);) {
    const auto j = nlohmann::json::parse(line);
    out[j["algorithm"].get<std::string>() + " " + j["params"].dump() + " " + j["case"].get<std::string>()] =
        j["kept"].dump() + " " + j["verified"].dump() + " " + j["skipped"].dump();
  }
  return out;
}

nlohmann::json read_json(const fs::path& p) { return nlohmann::json::parse(std::ifstream(p)); }

class results : public testing::Test {
protected:
  void SetUp() override {
    m_dir = fs::temp_directory_path() / ("winnow_results_" + std::to_string(::getpid()));
    fs::create_directories(m_dir);
  }
  void TearDown() override { fs::remove_all(m_dir); }
  fs::path m_dir;
  // Enough work to be interrupted in the middle: 5 cpu algorithms × 6 cases of 4M elements, one seed each.
  const std::vector<std::string> m_sweep = {"bench",
                                            "--suite",
                                            "cpu",
                                            "--seeds",
                                            "1",
                                            "--reps",
                                            "3",
                                            "--warmup",
                                            "0",
                                            "--warmup-time",
                                            "0",
                                            "--case",
                                            "removal:4M:k=0.1",
                                            "--case",
                                            "removal:4M:k=0.5",
                                            "--case",
                                            "uniform:4M:p=0.2",
                                            "--case",
                                            "uniform:4M:p=0.9",
                                            "--case",
                                            "removal:4M:k=0.9",
                                            "--case",
                                            "uniform:4M:p=0.5"};
  std::vector<std::string> sweep_into(const fs::path& out) const {
    auto args = m_sweep;
    args.insert(args.end(), {"--out", out.string()});
    return args;
  }
};

TEST_F(results, an_interrupted_and_resumed_bench_gives_the_records_of_an_uninterrupted_one) {
  const fs::path whole = m_dir / "whole", cut = m_dir / "cut";
  ASSERT_EQ(wait_for(start(sweep_into(whole), m_dir / "whole.log")), 0);
  const std::size_t total = lines_in(whole / "cpu.jsonl");
  ASSERT_EQ(total, 30u);

  const pid_t pid = start(sweep_into(cut), m_dir / "cut.log");
  ASSERT_TRUE(wait_for_lines(cut / "cpu.journal.jsonl", 3));
  ::kill(pid, SIGINT);
  EXPECT_EQ(wait_for(pid), 128 + SIGINT);
  // Whole files with what finished, marked incomplete; no journal, no temporary file left behind.
  const std::size_t kept = lines_in(cut / "cpu.jsonl");
  EXPECT_GE(kept, 3u);
  EXPECT_LT(kept, total);
  EXPECT_EQ(lines_in(cut / "cpu.csv"), kept + 1); // + header
  const auto status = read_json(cut / "cpu.status.json");
  EXPECT_FALSE(status["complete"].get<bool>());
  EXPECT_EQ(status["records"], kept);
  EXPECT_EQ(status["planned"], total);
  EXPECT_FALSE(fs::exists(cut / "cpu.journal.jsonl"));
  for (const auto& e : fs::directory_iterator(cut))
    EXPECT_FALSE(e.path().filename().string().starts_with(".cpu")) << e.path();

  auto resumed = sweep_into(cut);
  resumed.push_back("--resume");
  ASSERT_EQ(wait_for(start(resumed, m_dir / "resumed.log")), 0);
  std::ifstream log(m_dir / "resumed.log");
  const std::string text{std::istreambuf_iterator<char>(log), {}};
  EXPECT_NE(text.find("resuming: " + std::to_string(kept) + " records"), std::string::npos) << text;
  EXPECT_TRUE(read_json(cut / "cpu.status.json")["complete"].get<bool>());
  EXPECT_EQ(outcomes(cut / "cpu.jsonl"), outcomes(whole / "cpu.jsonl"));
}

TEST_F(results, two_benches_into_one_folder_refuse_each_other) {
  const fs::path out = m_dir / "shared";
  const pid_t first = start(sweep_into(out), m_dir / "first.log");
  ASSERT_TRUE(wait_for_lines(out / "cpu.journal.jsonl", 1));
  std::vector<std::string> args = {"--suite", "cpu", "--case", "all:100", "--out", out.string()};
  std::string joined = "bench";
  for (const auto& a : args) joined += " " + a;
  const result second = winnow(joined);
  ::kill(first, SIGTERM);
  EXPECT_EQ(wait_for(first), 128 + SIGTERM);
  EXPECT_EQ(second.code, 2) << second.output;
  EXPECT_NE(second.output.find("another winnow (pid " + std::to_string(first) + ") is writing into this folder"),
            std::string::npos)
      << second.output;
}

TEST_F(results, suite_files_are_checked_whole_before_anything_runs) {
  auto suite_with = [&](const std::string& body) {
    const fs::path p = m_dir / "s.json";
    std::ofstream(p) << body;
    return winnow("bench --suite " + p.string() + " --out " + (m_dir / "out").string());
  };
  const std::string cases = R"("cases": ["all:100"])";
  const std::vector<std::pair<std::string, std::string>> bad = {
      {R"({"name": "/tmp/elsewhere/x", )" + cases + "}", "\"name\" must be a plain file name"},
      {R"({"name": "a/b", )" + cases + "}", "\"name\" must be a plain file name"},
      {R"({"name": "", )" + cases + "}", "\"name\" must be a plain file name"},
      {R"({"name": "..", )" + cases + "}", "\"name\" must be a plain file name"},
      {R"({"name": "x", "reps": 0, )" + cases + "}", "\"reps\" must be an integer in 1…100000 (got 0)"},
      {R"({"name": "x", "reps": 1.5, )" + cases + "}", "\"reps\" must be an integer in 1…100000 (got 1.5)"},
      {R"({"name": "x", "reps": 100001, )" + cases + "}", "\"reps\" must be an integer in 1…100000"},
      {R"({"name": "x", "warmup": -1, )" + cases + "}", "\"warmup\" must be an integer in 0…100000"},
      {R"({"name": "x", "seeds": 0, )" + cases + "}", "\"seeds\" must be an integer in 1…1000 (got 0)"},
      {R"({"name": "x", "min_time_ms": -1, )" + cases + "}", "\"min_time_ms\" must be a number in 0…60000 (got -1)"},
      {R"({"name": "x", "quick": {"min_time_ms": "5"}, )" + cases + "}", "\"min_time_ms\" must be a number"},
      {R"({"name": "x", "busy_ms": 70000, )" + cases + "}", "\"busy_ms\" must be a number in 0…60000 (got 70000)"},
      {R"({"name": "x", "quick": {"seeds": 1001}, )" + cases + "}", "\"seeds\" must be an integer in 1…1000"},
      {R"({"name": "x", "algos": ["cpu/redzone"], )" + cases + "}", "unknown key \"algos\""},
      {R"({"name": "x", "cases": []})", "\"cases\" is empty"},
      {R"({"name": "x", "cases": ["uniform:{size}"]})", "uses {size} but \"sizes\" is empty"},
      {R"({"name": "x", "sizes": "1M", )" + cases + "}", "\"sizes\" must be a list of strings"},
      {R"({"name": "x", "params": {"cpu/nope": {"a": ["1"]}}, )" + cases + "}", "unknown algorithm 'cpu/nope'"},
      {R"({"name": "x", "params": {"cpu/redzone": []}, )" + cases + "}", "\"cpu/redzone\" lists no grid"},
      {R"({"name": "x", "params": {"cpu/redzone": [{"threads": "1"}]}, )" + cases + "}", "\"params\" must be"},
      {R"({"name": "x", "params": ["cpu/redzone"], )" + cases + "}", "\"params\" must be"},
      {R"({"name": "x", "quick": {"name": "y"}, )" + cases + "}", "unknown key \"quick.name\""},
      {R"({"name": "x", "quick": {"reps": 0}, )" + cases + "}", "\"reps\" must be an integer in 1…100000"},
      {R"({"name": "x", )" + cases, "not JSON"},
  };
  for (const auto& [body, message] : bad) {
    const result r = suite_with(body);
    EXPECT_EQ(r.code, 2) << body << "\n" << r.output;
    EXPECT_NE(r.output.find(message), std::string::npos) << body << "\n" << r.output;
  }
  EXPECT_FALSE(fs::exists("/tmp/elsewhere/x.jsonl"));
  EXPECT_FALSE(fs::exists(m_dir / "out" / "x.jsonl")); // nothing ran

  const result no_quick = winnow("bench --suite default --quick --out " + (m_dir / "q").string());
  EXPECT_EQ(no_quick.code, 2) << no_quick.output;
  EXPECT_NE(no_quick.output.find("has no \"quick\" section"), std::string::npos) << no_quick.output;
}

TEST_F(results, output_names_and_input_files_are_checked_before_the_run) {
  const std::string missing = (m_dir / "missing" / "r.jsonl").string();
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"run --algo cpu/sequential --case all:10 --out ''", "--out: empty file name"},
      {"run --algo cpu/sequential --case all:10 --out " + missing, "does not exist"},
      {"calibrate --api cpu", "calibrate: cpu has no pass model to calibrate"},
      {"calibrate --api gl --out " + (m_dir / "c.txt").string(), "must end in .jsonl"},
      {"corpus all:10 --out " + (m_dir / "missing" / "x.png").string(), "does not exist"},
      {"bench --suite cpu --case file:" + (m_dir / "absent.png").string() + " --out " + (m_dir / "b").string(),
       "no such file"},
  };
  for (const auto& [args, message] : bad) {
    const result r = winnow(args);
    EXPECT_EQ(r.code, 2) << args << "\n" << r.output;
    EXPECT_NE(r.output.find(message), std::string::npos) << args << "\n" << r.output;
  }
  // A FIFO named like an image would block the read forever.
  const fs::path fifo = m_dir / "x.png";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::vector<std::string> commands = {"run --algo cpu/sequential --case file:",
                                             "bench --suite cpu --out " + (m_dir / "f").string() + " --case file:"};
  for (const auto& cmd : commands) {
    const result r = winnow(cmd + fifo.string());
    EXPECT_EQ(r.code, 2) << r.output;
    EXPECT_NE(r.output.find("not a regular file"), std::string::npos) << r.output;
  }
}

TEST_F(results, reproduce_refuses_an_unknown_paper) {
  const result r = winnow("reproduce nature --out " + (m_dir / "r").string());
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(
      r.output.find("unknown paper 'nature' (known: moreira, cross-api, redzone, billeter, cpu, cis565, limit, all)"),
      std::string::npos)
      << r.output;
  // The help names the same papers, from the same list.
  const result help = winnow("reproduce --help");
  EXPECT_EQ(help.code, 0) << help.output;
  EXPECT_NE(help.output.find("moreira, cross-api, redzone, billeter, cpu, cis565, limit, or all"), std::string::npos)
      << help.output;
}

TEST_F(results, reproduce_list_estimates_the_steps_that_cannot_run_here_as_where_their_device_is) {
  // The Redzone paper without a CUDA device: its cpu step here, its cuda steps estimated as on a GPU,
  // each with its records, and their sum apart; nothing is written.
  const result r = winnow("reproduce redzone --out " + (m_dir / "r").string() + " --list");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_FALSE(fs::exists(m_dir / "r")) << "--list writes nothing";
  if (r.output.find("cuda  (") == std::string::npos) GTEST_SKIP() << "cuda runs here:\n" << r.output;
  // redzone 6580, redzone-r 1500, preserve 30 on cuda (the suites' own plans).
  for (const char* step : {"(6580)", "(1500)", "(30)"}) EXPECT_NE(r.output.find(step), std::string::npos) << step;
  EXPECT_NE(r.output.find("The steps that cannot run here: 8110 records, an estimated "), std::string::npos)
      << r.output;
}

} // namespace
