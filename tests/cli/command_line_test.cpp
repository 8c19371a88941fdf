// Records hold the command as the user typed it: a child `winnow reproduce` starts runs as this
// machine's /proc/self/exe, and must not write that path into records committed elsewhere.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "run_winnow.hpp"

namespace {

namespace fs = std::filesystem;

std::string recorded_command(const fs::path& records) {
  std::ifstream in(records);
  std::string line;
  std::getline(in, line);
  return nlohmann::json::parse(line).at("command").get<std::string>();
}

TEST(command_line, a_record_names_the_program_as_typed_by_the_parent) {
  const fs::path dir = fs::path(::testing::TempDir()) / "winnow_command_line";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const auto out = (dir / "r.jsonl").string();
  const auto r = winnow_test::winnow_with("WINNOW_ARGV0=build/release/winnow",
                                          "run --algo cpu/sequential --case all:16 --reps 1 --out " + out);
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_EQ(recorded_command(out),
            "build/release/winnow run --algo cpu/sequential --case all:16 --reps 1 --out " + out);
}

TEST(command_line, without_a_parent_a_record_names_the_program_as_it_was_started) {
  const fs::path dir = fs::path(::testing::TempDir()) / "winnow_command_line_plain";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const auto out = (dir / "r.jsonl").string();
  const auto r = winnow_test::winnow("run --algo cpu/sequential --case all:16 --reps 1 --out " + out);
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_EQ(recorded_command(out),
            std::string(WINNOW_EXE) + " run --algo cpu/sequential --case all:16 --reps 1 --out " + out);
}

} // namespace
