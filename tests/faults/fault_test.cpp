// A fault costs one record, not the campaign: on every GPU backend that runs here, a bench of
// API/lose_context and API/fresh over two cases (tests/faults/fault_algorithms.cpp) records each lost
// context as a failed record with the reason, and goes on in a fresh process (API/fresh verifies
// only there), so that every planned record is written.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "../cli/run_winnow.hpp"
#include "winnow/backends.hpp"
#include "winnow/harness.hpp"

namespace {

namespace fs = std::filesystem;

using winnow_test::count;
using winnow_test::result;

class faults : public testing::TestWithParam<std::string> {};

TEST_P(faults, a_lost_context_costs_its_record_and_the_bench_goes_on_in_a_fresh_process) {
  const std::string api = GetParam();
  if (const auto why = winnow::all_backends().unavailable_reason(api)) GTEST_SKIP() << api << ": " << *why;
  const fs::path dir = fs::temp_directory_path() / ("winnow_faults_" + api + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  const result r = winnow_test::run_program(
      WINNOW_FAULTY_EXE, "",
      "bench --algo " + api + "/lose_context," + api +
          "/fresh --case uniform:4K:p=0.5 --case uniform:1K:p=0.1 --reps 2 --warmup 0 --warmup-time 0 "
          "--out " +
          dir.string());
  // A failed record makes bench exit 1; 2 would be a usage error, anything else a crash.
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_EQ(count(r.output, "lost its context; the bench goes on in a fresh process"), 2u) << r.output;

  const std::map<std::string, std::string> code_of = {{"gl", "GL_CONTEXT_LOST"},
                                                      {"vk", "VK_ERROR_DEVICE_LOST"},
                                                      {"vkfrag", "VK_ERROR_DEVICE_LOST"},
                                                      {"cuda", "cudaErrorIllegalAddress"}};
  std::map<std::string, int> lost, verified;
  std::ifstream in(dir / "custom.jsonl");
  ASSERT_TRUE(in) << "no custom.jsonl in " << dir << "\n" << r.output;
  for (std::string line; std::getline(in, line);) {
    const auto j = nlohmann::json::parse(line);
    const std::string algorithm = j.at("algorithm"), spec = j.at("case");
    if (algorithm == api + "/lose_context") {
      EXPECT_FALSE(j.at("verified").get<bool>()) << line;
      const std::string why = j.at("mismatch");
      EXPECT_TRUE(why.starts_with(winnow::context_lost_prefix)) << why;
      EXPECT_NE(why.find(code_of.at(api)), std::string::npos) << why;
      ++lost[spec];
    } else {
      EXPECT_EQ(algorithm, api + "/fresh") << line;
      EXPECT_TRUE(j.at("verified").get<bool>()) << line;
      ++verified[spec];
    }
  }
  // One lost and one verified record of each case: every record the bench planned.
  EXPECT_EQ(lost.size(), 2u) << r.output;
  for (const auto& [spec, n] : lost) EXPECT_EQ(n, 1) << spec;
  EXPECT_EQ(verified, lost) << r.output;
  EXPECT_FALSE(fs::exists(dir / "custom.journal.jsonl")); // the last process finished the files
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(every_gpu_backend, faults, testing::Values("gl", "vk", "vkfrag", "cuda"),
                         [](const auto& param_info) { return param_info.param; });

} // namespace
