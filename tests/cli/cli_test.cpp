// The CLI's exit codes and messages: 0 success, 1 a failed run, 2 a usage error naming the bad part.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stb/stb_image.h>

#include "run_winnow.hpp"

namespace {

using winnow_test::result;
using winnow_test::winnow;
using winnow_test::winnow_with;

class cli : public testing::Test {
protected:
  void SetUp() override {
    m_dir = std::filesystem::temp_directory_path() / ("winnow_cli_" + std::to_string(::getpid()));
    std::filesystem::create_directories(m_dir);
  }
  void TearDown() override { std::filesystem::remove_all(m_dir); }
  std::string path(const char* name) const { return (m_dir / name).string(); }
  std::filesystem::path m_dir;
};

void expect_usage_error(const std::string& args, const std::string& message) {
  const result r = winnow(args);
  EXPECT_EQ(r.code, 2) << args << "\n" << r.output;
  EXPECT_NE(r.output.find(message), std::string::npos) << args << "\n" << r.output;
}

TEST_F(cli, usage_errors_exit_2_and_name_the_bad_part) {
  expect_usage_error("run --algo cpu/nope --case all:10", "unknown algorithm 'cpu/nope' (known: cpu/sequential,");
  expect_usage_error("run --algo cpu/sequential --case unifrom:10", "unknown family 'unifrom'");
  expect_usage_error("run --algo cpu/redzone --case all:10 --param batches=0",
                     "cpu/redzone: batches='0' is not accepted (batches: an integer in [1, 1048576])");
  expect_usage_error("run --algo cpu/redzone --case all:10 --param colour=red", "unknown parameter 'colour'");
  expect_usage_error("run --algo cpu/redzone --case all:10 --param batches", "--param 'batches' is not key=value");
  expect_usage_error("run --algo cpu/sequential --case file:" + path("absent.png"), "absent.png: no such file");
  expect_usage_error("run --algo cpu/sequential --case uniform:3G", "too large for this machine's memory");
  expect_usage_error("run --algo cpu/sequential --case all:10 --out r.txt", "must end in .jsonl or .csv");
  expect_usage_error("run --algo cpu/sequential", "--case is required");
  expect_usage_error("bench --suite nope", "unknown suite 'nope' (known: ");
  expect_usage_error("bench --api metal", "unknown api 'metal' (known: cpu");
  expect_usage_error("bench --api cpu --check gpu --out " + path("b"), "--check: gpu not in {host,device}");
  expect_usage_error("run --algo cpu/sequential --case all:10 --check", "--check");
  expect_usage_error("corpus all:10 --out x.bmp", "must end in .png");
  expect_usage_error("frobnicate", "frobnicate");
  expect_usage_error("", "A subcommand is required");
  // Hostile numbers and lists (issue 17): NaN passes a range check unless it is asked to be finite.
  expect_usage_error("run --algo cpu/sequential --case all:10 --warmup-time nan", "must be a finite number, not nan");
  expect_usage_error("bench --api cpu --case all:10 --warmup-time inf --out " + path("b"), "must be a finite number");
  expect_usage_error("bench --api cpu,,gl --case all:10 --out " + path("b"), "has an empty element");
  expect_usage_error("calibrate --api ,cpu", "has an empty element");
  {
    std::ofstream(path("x.bmp"), std::ios::binary) << "BM" << std::string(60, '\0');
    expect_usage_error("run --algo cpu/sequential --case file:" + path("x.bmp"),
                       "a BMP (file: cases read PNG and PGM)");
    expect_usage_error("bench --api cpu --case file:" + path("x.bmp") + " --out " + path("b"), "a BMP");
    // A header that passes and data that do not: bench still exits 2 (after writing the other records).
    std::ofstream(path("t.pgm"), std::ios::binary) << "P5\n64 64\n255\nabc";
    expect_usage_error("bench --api cpu --case all:10 --case file:" + path("t.pgm") + " --out " + path("b2"),
                       "truncated");
  }
}

TEST_F(cli, a_case_over_the_devices_size_limit_is_refused_before_it_is_made) {
  if (winnow("run --algo gl/horn --case all:10").code != 0) GTEST_SKIP() << "GL cannot run here";
  // llvmpipe's GL_MAX_TEXTURE_SIZE is 16384 (2^28 words), NVIDIA's 32768: 2^32 − 1 elements exceed both
  // and this machine's memory, and the limit is named first, at once (no 16 GiB case is built).
  expect_usage_error("run --algo gl/horn --case uniform:4294967295",
                     "words, this device's limit (GL_MAX_TEXTURE_SIZE on GL");
}

TEST_F(cli, run_verifies_prints_phases_and_writes_a_record) {
  const result r = winnow("run --algo cpu/redzone --case removal:100000:k=0.1 --reps 3 --out " + path("r.jsonl"));
  ASSERT_EQ(r.code, 0) << r.output;
  for (const char* phase : {"mark", "fill", "orphans", "total", "wall", "verified"})
    EXPECT_NE(r.output.find(phase), std::string::npos) << phase << "\n" << r.output;
  std::ifstream in(path("r.jsonl"));
  std::string line;
  ASSERT_TRUE(std::getline(in, line));
  const auto j = nlohmann::json::parse(line);
  EXPECT_EQ(j["algorithm"], "cpu/redzone");
  EXPECT_EQ(j["case"], "removal:100000:k=0.1:r=uniform:seed=1");
  EXPECT_EQ(j["reps"], 3);
  EXPECT_EQ(j["verified"], true);
  EXPECT_NE(j["command"].get<std::string>().find("run --algo cpu/redzone"), std::string::npos);
  EXPECT_EQ(r.output.find("chosen"), std::string::npos) << "nothing given as auto\n" << r.output;
  EXPECT_FALSE(j.contains("chosen"));
}

TEST_F(cli, per_pass_times_every_pass_of_a_shader_era_algorithm_as_a_phase) {
  const result r = winnow("run --algo vk/bt --case uniform:5000:p=0.5 --reps 2 --per-pass --out " + path("p.jsonl"));
  if (r.code == 1 && r.output.find("cannot run here") != std::string::npos) GTEST_SKIP() << r.output;
  ASSERT_EQ(r.code, 0) << r.output;
  std::ifstream in(path("p.jsonl"));
  std::string line;
  ASSERT_TRUE(std::getline(in, line));
  const auto j = nlohmann::json::parse(line);
  // One phase per pass, each named after its phase and pass ("count: ..."), as many as the passes
  // the record says were launched.
  ASSERT_TRUE(j["phases"].is_array());
  EXPECT_EQ(j["phases"].size(), j["launches"].get<std::size_t>()) << j["phases"].dump();
  for (const auto& p : j["phases"]) EXPECT_NE(p["name"].get<std::string>().find(": "), std::string::npos) << p["name"];
  EXPECT_NE(r.output.find("reduce: "), std::string::npos) << r.output;
}

TEST_F(cli, run_says_what_a_parameter_given_as_auto_settled) {
  const result r = winnow("run --algo vkfrag/horn --case uniform:5000:p=0.5 --param concat=auto --reps 1 --out " +
                          path("auto.jsonl"));
  if (r.output.find("skipped:") != std::string::npos || r.output.find("unavailable") != std::string::npos)
    GTEST_SKIP() << "no Vulkan graphics queue here: " << r.output;
  ASSERT_EQ(r.code, 0) << r.output;
  const auto at = r.output.find("chosen  concat=");
  ASSERT_NE(at, std::string::npos) << r.output;
  const std::string method = r.output.substr(at + 15, 5);
  EXPECT_TRUE(method == "lines" || method == "rects") << r.output;
  std::ifstream in(path("auto.jsonl"));
  std::string line;
  ASSERT_TRUE(std::getline(in, line));
  const auto j = nlohmann::json::parse(line);
  EXPECT_EQ(j["params"]["concat"], "auto");
  EXPECT_EQ(j["chosen"]["concat"], method);
}

TEST_F(cli, bench_writes_jsonl_and_csv_whole) {
  const result r = winnow(
      "bench --suite cpu --case uniform:20000:p=0.3 --case removal:20000:k=0.5 --seeds 1 --reps 1 --warmup 0 --out " +
      path("out"));
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("[10/10 "), std::string::npos) << "progress on stderr\n" << r.output;
  std::ifstream jsonl(path("out/cpu.jsonl")), csv(path("out/cpu.csv"));
  std::string line;
  int lines = 0;
  while (std::getline(jsonl, line)) {
    const auto j = nlohmann::json::parse(line);
    EXPECT_TRUE(j["verified"].get<bool>()) << line;
    ++lines;
  }
  EXPECT_EQ(lines, 10) << "5 algorithms × 2 cases";
  int rows = 0;
  while (std::getline(csv, line)) ++rows;
  EXPECT_EQ(rows, 11);
}

TEST_F(cli, bench_records_sizes_over_memory_as_skipped) {
  const result r =
      winnow("bench --suite cpu --algo cpu/sequential --case removal:3G:k=0.1 --seeds 1 --out " + path("big"));
  EXPECT_EQ(r.code, 0) << r.output;
  std::ifstream jsonl(path("big/cpu.jsonl"));
  std::string line;
  ASSERT_TRUE(std::getline(jsonl, line));
  const auto j = nlohmann::json::parse(line);
  EXPECT_NE(j["skipped"].get<std::string>().find("too large"), std::string::npos) << line;
  EXPECT_EQ(j["n"], 3ull << 30) << "a skipped record still says which size it was";
}

TEST_F(cli, corpus_writes_a_png) {
  const result r = winnow("corpus hand:64K --out " + path("hand.png"));
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("256×256"), std::string::npos) << r.output;
  std::ifstream png(path("hand.png"), std::ios::binary);
  char magic[4] = {};
  png.read(magic, 4);
  EXPECT_EQ(std::string(magic + 1, 3), "PNG");
}

TEST_F(cli, list_shows_every_algorithm_and_help_prints_the_guide) {
  const result l = winnow("list");
  ASSERT_EQ(l.code, 0);
  for (const char* a :
       {"cpu/sequential", "cpu/remove_if", "cpu/par_remove_if", "cpu/redzone", "cpu/stencil", "suites", "removal"})
    EXPECT_NE(l.output.find(a), std::string::npos) << a;
  const result h = winnow("help");
  EXPECT_EQ(h.code, 0);
  EXPECT_NE(h.output.find("CORPUS SPECS"), std::string::npos);
}

TEST_F(cli, trace_refuses_bad_input_before_running_and_writes_nothing) {
  expect_usage_error("trace --algo cpu/redzone --case all:10 --out " + path("t"), "not a shader-era algorithm");
  expect_usage_error("trace --algo vk/ballot --case all:10 --out " + path("t"), "not a shader-era algorithm");
  expect_usage_error("trace --algo gl/horn --case uniform:32M --out " + path("t"), "too many to look at (at most 16M)");
  expect_usage_error("trace --algo gl/horn --case all:10 --param block=48 --out " + path("t"),
                     "block='48' is not accepted");
  expect_usage_error("trace --algo gl/horn --case all:10", "--out is required");
  std::ofstream(path("a_file")) << "x";
  expect_usage_error("trace --algo gl/horn --case all:10 --out " + path("a_file") + "/sub", "cannot create it");
  EXPECT_FALSE(std::filesystem::exists(path("t"))) << "nothing written for a refused trace";
}

TEST_F(cli, trace_writes_a_picture_per_pass_a_contact_sheet_and_a_description) {
  const result r = winnow("trace --algo gl/rlz --case runs:5000 --param block=32 --param runs=tree --out " + path("t"));
  if (r.code == 1 && r.output.find("cannot run here") != std::string::npos) GTEST_SKIP() << r.output;
  ASSERT_EQ(r.code, 0) << r.output;
  std::ifstream in(path("t/trace.json"));
  const auto j = nlohmann::json::parse(in);
  EXPECT_EQ(j["algorithm"], "gl/rlz");
  ASSERT_GT(j["passes"].size(), 10u);
  EXPECT_EQ(j["passes"][0]["phase"], "input");
  for (const auto& p : j["passes"]) {
    const std::string file = p["file"];
    EXPECT_TRUE(std::filesystem::exists(path("t") + "/" + file)) << file;
    EXPECT_EQ(file.substr(0, 2), (p["number"].get<int>() < 10 ? "0" : "") + std::to_string(p["number"].get<int>()));
  }
  EXPECT_EQ(j["passes"].back()["phase"], "concat");
  EXPECT_TRUE(std::filesystem::exists(path("t/contact.png")));
}

/// The pixels of a PNG file (RGB), or nothing.
struct png_pixels {
  int width = 0, height = 0;
  std::vector<unsigned char> rgb;
  [[nodiscard]] const unsigned char* at(int x, int y) const {
    return &rgb[3 * static_cast<std::size_t>(y * width + x)];
  }
};
png_pixels load_png(const std::string& file) {
  png_pixels p;
  int channels = 0;
  unsigned char* data = stbi_load(file.c_str(), &p.width, &p.height, &channels, 3);
  if (!data) return p;
  p.rgb.assign(data, data + 3 * static_cast<std::size_t>(p.width * p.height));
  stbi_image_free(data);
  return p;
}

TEST_F(cli, view_without_a_display_says_so_and_refuses_bad_input) {
  const result no_display = winnow("view --algo gl/horn --case all:100");
  if (std::getenv("DISPLAY") == nullptr || *std::getenv("DISPLAY") == 0) {
    EXPECT_EQ(no_display.code, 1) << no_display.output;
    EXPECT_NE(no_display.output.find("no display: set DISPLAY, or use winnow trace"), std::string::npos)
        << no_display.output;
  }
  expect_usage_error("view --algo vk/horn --case all:100", "not a GL shader-era algorithm");
  expect_usage_error("view --algo gl/horn --case uniform:32M", "too many to look at");
}

TEST_F(cli, the_viewer_shows_a_pass_exactly_as_the_trace_draws_it) {
  if (std::system("command -v xvfb-run >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "no xvfb-run (Debian's xvfb): the window cannot be tested";
  const std::string args = " --algo gl/horn --case hand:16K --param block=32";
  const result t = winnow("trace" + args + " --out " + path("t"));
  if (t.code == 1 && t.output.find("cannot run here") != std::string::npos) GTEST_SKIP() << t.output;
  ASSERT_EQ(t.code, 0) << t.output;
  const std::string shot = path("shot.png");
  const std::string cmd = "xvfb-run -a -s '-screen 0 1400x1000x24' " + std::string(WINNOW_EXE) + " view" + args +
                          " --script next,next,screenshot:" + shot + ",quit 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  std::ifstream trace_json(path("t/trace.json")), shot_json(shot + ".json");
  const auto tj = nlohmann::json::parse(trace_json), sj = nlohmann::json::parse(shot_json);
  const auto& pass = tj["passes"][2];
  EXPECT_EQ(sj["pass"], 2);
  const png_pixels traced = load_png(path("t") + "/" + pass["file"].get<std::string>()), seen = load_png(shot);
  ASSERT_GT(traced.width, 0);
  ASSERT_GT(seen.width, 0);
  const int scale = pass["image"]["scale"], tx = pass["image"]["x"], ty = pass["image"]["y"];
  const int w = pass["width"].get<int>() * scale, h = pass["height"].get<int>() * scale;
  const int sx = static_cast<int>(sj["x"].get<double>()), sy = static_cast<int>(sj["y"].get<double>());
  EXPECT_EQ(sj["width"].get<double>(), w);
  EXPECT_EQ(sj["height"].get<double>(), h);
  ASSERT_LE(sx + w, seen.width);
  ASSERT_LE(sy + h, seen.height);
  int differ = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) differ += std::memcmp(traced.at(tx + x, ty + y), seen.at(sx + x, sy + y), 3) != 0;
  EXPECT_EQ(differ, 0) << "of " << w * h << " pixels of the stream area differ between the trace and the window";
}

} // namespace

TEST_F(cli, vulkan_pipeline_statistics_are_printed_when_asked_for) {
  const result bad = winnow_with("WINNOW_VK_PIPELINE_STATS=2", "run --algo vk/ballot --case all:100");
  EXPECT_EQ(bad.code, 2) << bad.output;
  EXPECT_NE(bad.output.find("WINNOW_VK_PIPELINE_STATS='2' is not accepted (0 or 1)"), std::string::npos) << bad.output;

  const result r = winnow_with("WINNOW_VK_PIPELINE_STATS=1", "run --algo vk/ballot --case uniform:64K");
  if (r.code == 1 && r.output.find("cannot run here") != std::string::npos) GTEST_SKIP() << r.output;
  ASSERT_EQ(r.code, 0) << r.output;
  if (r.output.find("offers no VK_KHR_pipeline_executable_properties") != std::string::npos)
    GTEST_SKIP() << "the Vulkan driver here has no pipeline statistics (Mesa lavapipe before 23): " << r.output;
  // One line per pass's pipeline, each naming the shader and its constants, with name=value statistics.
  for (const char* shader : {"ballot_count[", "ballot_scan[", "ballot_move["}) {
    const auto at = r.output.find(std::string("winnow::vk::pipeline: ") + shader);
    ASSERT_NE(at, std::string::npos) << shader << " has no statistics line:\n" << r.output;
    const std::string line = r.output.substr(at, r.output.find('\n', at) - at);
    EXPECT_NE(line.find("(subgroup "), std::string::npos) << line;
    EXPECT_NE(line.find('='), std::string::npos) << line;
  }
  EXPECT_EQ(winnow("run --algo vk/ballot --case uniform:64K").output.find("winnow::vk::pipeline:"), std::string::npos)
      << "statistics only when asked for";
}
