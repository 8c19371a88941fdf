#include <gtest/gtest.h>

#include <limits>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "winnow/error.hpp"
#include "winnow/record.hpp"

namespace winnow {
namespace {

record sample() {
  record r;
  stamp(r);
  r.api = "cpu";
  r.algorithm = "cpu/redzone";
  r.parameters = {{"threads", "2"}, {"batches", "7"}};
  r.spec = "removal:1M:k=0.1:r=uniform:seed=1";
  r.n = 1 << 20;
  r.removals = 104858;
  r.valid = r.n - r.removals;
  r.stable = false;
  r.in_place = true;
  r.reps = 5;
  r.phases = {{"mark", {100, 90, 120}}, {"fill", {200, 190, 210}}};
  r.total = {300, 280, 330, 302, 20, 290, 310};
  r.max_noise = 0.05;
  r.min_time_ns = 20e6;
  r.timer = "CUDA events";
  r.timeout_s = 15;
  r.wall = {310, 290, 340};
  r.bytes_read = 1000;
  r.bytes_written = 500;
  r.verified = true;
  return r;
}

TEST(record, json_line_has_every_schema_field) {
  const auto j = nlohmann::json::parse(to_json_line(sample()));
  for (const char* key : {"schema",    "winnow",     "command",       "host",     "device",   "driver",   "api",
                          "algorithm", "params",     "case",          "n",        "removals", "valid",    "stable",
                          "in_place",  "warmup",     "warmup_ms",     "reps",     "cold",     "phases",   "total",
                          "wall",      "bytes_read", "bytes_written", "launches", "verified", "mismatch", "skipped"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["schema"], record_schema_version);
  EXPECT_EQ(j["params"]["batches"], "7");
  EXPECT_EQ(j["phases"][1]["name"], "fill");
  EXPECT_EQ(j["phases"][1]["median_ns"], 200.0);
  EXPECT_EQ(j["total"]["max_ns"], 330.0);
  EXPECT_EQ(j["total"]["stddev_ns"], 20.0);
  EXPECT_EQ(j["total"]["q3_ns"], 310.0);
  EXPECT_DOUBLE_EQ(j["total"]["noise"].get<double>(), 20.0 / 302.0);
  EXPECT_EQ(j["max_noise"], 0.05);
  EXPECT_EQ(j["min_time_ms"], 20.0);
  EXPECT_TRUE(j["skipped"].is_null());
  EXPECT_TRUE(j["mismatch"].is_null());
  EXPECT_EQ(to_json_line(sample()).find('\n'), std::string::npos) << "one record, one line";
}

TEST(record, a_json_line_reads_back_to_the_same_record) {
  record r = sample();
  r.mismatch = "element 3: 7 ≠ 8";
  r.skipped = "no CUDA device";
  r.chosen = {{"block", "128"}};
  r.notes = {{"expected_regret_ns", "1250.5"}};
  EXPECT_EQ(to_json_line(from_json_line(to_json_line(r))), to_json_line(r));
  EXPECT_EQ(from_json_line(to_json_line(r)).notes, r.notes);
  EXPECT_FALSE(nlohmann::json::parse(to_json_line(sample())).contains("notes")) << "no notes, no field";
  // The host's steps keep their order and read back in ns (written in ms); none, no field.
  r.host_ns = {{"make", 2.5e9}, {"prepare", 1.5e6}, {"runs", 4e8}, {"check", 7}};
  const auto host = nlohmann::ordered_json::parse(to_json_line(r))["host_ms"];
  EXPECT_EQ(host.begin().key(), "make");
  EXPECT_EQ(host["make"], 2500.0);
  EXPECT_EQ(from_json_line(to_json_line(r)).host_ns, r.host_ns);
  EXPECT_EQ(to_json_line(from_json_line(to_json_line(r))), to_json_line(r));
  EXPECT_FALSE(nlohmann::json::parse(to_json_line(sample())).contains("host_ms")) << "no steps, no field";
  EXPECT_THROW((void)from_json_line(R"({"schema": 1, "winnow": "x"})"), error);
  // A record from before the spread was recorded reads back with it 0.
  auto old = nlohmann::json::parse(to_json_line(r));
  for (const char* key : {"mean_ns", "stddev_ns", "q1_ns", "q3_ns", "noise"}) old["total"].erase(key);
  old.erase("max_noise");
  old.erase("min_time_ms");
  old.erase("timeout_s");
  const record back = from_json_line(old.dump());
  EXPECT_EQ(back.total.median, 300);
  EXPECT_EQ(back.total.stddev, 0);
  EXPECT_EQ(back.max_noise, 0);
  EXPECT_EQ(back.min_time_ns, 0);
  EXPECT_THROW((void)from_json_line("not json"), error);
}

TEST(record, the_warm_up_rule_and_the_clock_read_back_and_older_records_read_without_them) {
  record r = sample();
  EXPECT_FALSE(nlohmann::json::parse(to_json_line(r)).contains("warmup_rule")) << "nothing measured, no rule";
  r.warmup_rule = "nvml";
  r.discarded = 2;
  r.sm_mhz_min = 1950;
  r.sm_mhz_max = 1980;
  r.sm_mhz_peak = 1980;
  r.clock_gave_up = true;
  const auto j = nlohmann::json::parse(to_json_line(r));
  EXPECT_EQ(j["warmup_rule"], "nvml");
  EXPECT_EQ(j["discarded"], 2);
  EXPECT_EQ(j["sm_mhz_min"], 1950.0);
  EXPECT_EQ(j["sm_mhz_peak"], 1980.0);
  EXPECT_EQ(j["clock_gave_up"], true);
  const record back = from_json_line(to_json_line(r));
  EXPECT_EQ(back.warmup_rule, "nvml");
  EXPECT_EQ(back.discarded, 2u);
  EXPECT_EQ(back.sm_mhz_min, 1950);
  EXPECT_EQ(back.sm_mhz_max, 1980);
  EXPECT_EQ(back.sm_mhz_peak, 1980);
  EXPECT_TRUE(back.clock_gave_up);
  EXPECT_EQ(to_json_line(back), to_json_line(r));
  // The settle rule reads no clock: no clock fields.
  r.warmup_rule = "settle";
  r.sm_mhz_peak = 0;
  EXPECT_FALSE(nlohmann::json::parse(to_json_line(r)).contains("sm_mhz_min"));
  // A record from before the rule was kept reads back without it.
  auto old = nlohmann::json::parse(to_json_line(r));
  for (const char* key : {"warmup_rule", "discarded", "clock_gave_up"}) old.erase(key);
  const record older = from_json_line(old.dump());
  EXPECT_EQ(older.warmup_rule, "");
  EXPECT_EQ(older.discarded, 0u);
  EXPECT_FALSE(older.clock_gave_up);
  EXPECT_NE(to_csv({r}).find(",settle,2,1950,1980,5,"), std::string::npos)
      << to_csv({r}); // rule, discarded, clock, reps
}

TEST(record, where_the_result_was_checked_reads_back_and_older_records_read_without_it) {
  record r = sample();
  EXPECT_FALSE(nlohmann::json::parse(to_json_line(r)).contains("checked_on")) << "nothing checked, no place";
  r.checked_on = "device";
  EXPECT_EQ(nlohmann::json::parse(to_json_line(r))["checked_on"], "device");
  const record back = from_json_line(to_json_line(r));
  EXPECT_EQ(back.checked_on, "device");
  EXPECT_EQ(to_json_line(back), to_json_line(r));
  auto old = nlohmann::json::parse(to_json_line(r));
  old.erase("checked_on");
  EXPECT_EQ(from_json_line(old.dump()).checked_on, "");
}

// Found by fuzz_record: a count written as a huge float or a negative number was converted as it
// came (undefined behaviour for an int, a wrapped value for an unsigned one). Each is refused by name.
TEST(record, counts_that_are_not_whole_numbers_in_range_are_refused_by_name) {
  const auto with = [](const char* key, const nlohmann::json& value) {
    auto j = nlohmann::json::parse(to_json_line(sample()));
    j[key] = value;
    return j.dump();
  };
  for (const char* key : {"schema", "n", "removals", "valid", "kept", "warmup", "reps", "bytes_read", "launches"}) {
    for (const nlohmann::json& bad : {nlohmann::json(3.33e86), nlohmann::json(2.5), nlohmann::json(-1),
                                      nlohmann::json(std::numeric_limits<std::uint64_t>::max())}) {
      if (bad.is_number_unsigned() && std::string(key) != "schema" && std::string(key) != "warmup" &&
          std::string(key) != "reps")
        continue; // a uint64 is in range for the 64-bit counts
      try {
        (void)from_json_line(with(key, bad));
        ADD_FAILURE() << key << " = " << bad.dump() << " was accepted";
      } catch (const error& e) { EXPECT_NE(std::string(e.what()).find(key), std::string::npos) << e.what(); }
    }
  }
  auto j = nlohmann::json::parse(to_json_line(sample()));
  j["warmup_runs"] = -3;
  EXPECT_THROW((void)from_json_line(j.dump()), error);
}

TEST(record, skipped_records_carry_the_reason) {
  record r = sample();
  r.skipped = "no CUDA device";
  EXPECT_EQ(nlohmann::json::parse(to_json_line(r))["skipped"], "no CUDA device");
}

TEST(record, csv_flattens_phases_as_the_union_in_order) {
  record a = sample(), b = sample();
  b.phases = {{"mark", {1, 1, 1}}, {"orphans", {5, 4, 6}}};
  b.command = "winnow run --case 'a,b'";
  const std::string csv = to_csv({a, b});
  std::istringstream in(csv);
  std::string header, row1, row2;
  std::getline(in, header);
  std::getline(in, row1);
  std::getline(in, row2);
  EXPECT_TRUE(header.starts_with("schema,winnow,api,algorithm,params,case,n,"));
  EXPECT_TRUE(header.ends_with(",mark_median_ns,mark_min_ns,mark_max_ns,fill_median_ns,fill_min_ns,fill_max_ns,"
                               "orphans_median_ns,orphans_min_ns,orphans_max_ns"))
      << header;
  EXPECT_TRUE(row1.ends_with(",100,90,120,200,190,210,,,")) << row1;
  EXPECT_TRUE(row2.ends_with(",1,1,1,,,,5,4,6")) << row2;
  EXPECT_NE(row2.find("\"winnow run --case 'a,b'\""), std::string::npos) << "fields with commas are quoted";
  EXPECT_NE(row1.find(",batches=7;threads=2,"), std::string::npos) << row1;
}

class record_files : public testing::Test {
protected:
  void SetUp() override {
    m_dir = std::filesystem::temp_directory_path() / ("winnow_records_" + std::to_string(::getpid()));
    std::filesystem::create_directories(m_dir);
  }
  void TearDown() override { std::filesystem::remove_all(m_dir); }
  std::filesystem::path m_dir;
};

TEST_F(record_files, written_whole_with_no_temporary_left) {
  write_jsonl(m_dir / "r.jsonl", {sample(), sample()});
  write_atomically(m_dir / "r.jsonl", "replaced\n");
  std::ifstream in(m_dir / "r.jsonl");
  std::string all((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(all, "replaced\n");
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(m_dir), {}), 1) << "only the result, no temp file";
}

TEST_F(record_files, unwritable_path_throws_naming_it_and_leaves_nothing) {
  const auto path = m_dir / "missing" / "r.jsonl";
  try {
    write_jsonl(path, {sample()});
    FAIL() << "no error";
  } catch (const error& e) {
    EXPECT_NE(std::string(e.what()).find(path.parent_path().string()), std::string::npos) << e.what();
  }
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(m_dir), {}), 0);
}

} // namespace
} // namespace winnow
