#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stb/stb_image_write.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <set>

#include "winnow/corpus.hpp"
#include "winnow/error.hpp"

namespace winnow {
namespace {

using namespace std::string_literals;

std::size_t valid_count(const workload& w) {
  return static_cast<std::size_t>(std::count_if(w.data.begin(), w.data.end(), [](auto x) { return x != 0; }));
}

/// The same spec gives the same bytes on every machine: these were computed once and pinned.
/// A change here changes every published result: bump the corpus, don't just update the numbers.
TEST(corpus, checksums_are_pinned_per_family) {
  const std::vector<std::pair<std::string, std::uint64_t>> pinned = {
      {"uniform:64K:p=0.3", 0x14986ab64606db78ull},
      {"runs:64K", 0x8848ce1360a3a71aull},
      {"brownian:64K:p=0.4", 0xa19906bf499662fbull},
      {"finger:64K", 0xab9fd48da8a26e36ull},
      {"i_finger:64K", 0x5dd0d19af3f15fcfull},
      {"hand:64K", 0x57c91b2287bcebd1ull},
      {"i_hand:64K", 0x619051ea2a2c9238ull},
      {"bunny:64K", 0x3dbfb8cbede3694aull},
      {"i_bunny:64K", 0x0fb23ac1d72cc3b3ull},
      {"all:1000", 0xcd3ed576492d74fcull},
      {"none:1000", 0x928039d0b1b2a129ull},
      {"single:1000", 0xf1113ad43043908aull},
      {"alternating:1001", 0xefbba603c1f63ec5ull},
      {"removal:64K:k=0.1", 0xe5c10f3d360d5bf0ull},
      {"removal:64K:k=0.5:r=0.25", 0xe9757821e48a59c8ull},
      // more than half removed: the sample picks the complement (here over 100003 - k, no whole words)
      {"removal:64K:k=0.9", 0xa8fc68b3260a6314ull},
      {"removal:100003:k=0.6:r=0.7", 0x97849cc59d975144ull},
      // removal lists of over a million elements, in storage advised for huge pages
      {"removal:3M:k=0.6", 0xd90881dbad9e06e3ull},
      {"uniform:3M:p=0.3", 0x0c1bc24e74f68677ull},
      {"removal:3M:k=0.5:r=0.25", 0x941ab689aa465e77ull}};
  for (const auto& [spec, sum] : pinned) EXPECT_EQ(checksum(generate(spec)), sum) << spec;
}

TEST(corpus, same_spec_same_bytes_other_seed_other_bytes) {
  for (const char* fam : {"uniform", "runs", "brownian", "removal"}) {
    const std::string a = std::string(fam) + ":10000:seed=5", b = std::string(fam) + ":10000:seed=6";
    EXPECT_EQ(checksum(generate(a)), checksum(generate(a))) << fam;
    EXPECT_NE(checksum(generate(a)), checksum(generate(b))) << fam;
  }
}

TEST(corpus, payloads_are_index_plus_one_or_zero) {
  for (const char* spec : {"uniform:10000:p=0.3", "finger:64K", "runs:10000", "brownian:10000", "alternating:99"}) {
    const workload w = generate(spec);
    for (std::size_t i = 0; i < w.size(); ++i) ASSERT_TRUE(w.data[i] == 0 || w.data[i] == i + 1) << spec << " at " << i;
  }
}

TEST(corpus, uniform_density_is_the_density_asked_for) {
  for (double p : {0.0, 0.02, 0.1, 0.5, 0.9, 1.0}) {
    const std::size_t n = 1 << 20;
    const workload w = generate("uniform:1M:p=" + std::to_string(p));
    const double sigma = std::sqrt(static_cast<double>(n) * p * (1 - p));
    EXPECT_NEAR(static_cast<double>(valid_count(w)), p * static_cast<double>(n), 5 * sigma + 0.5) << p;
  }
}

TEST(corpus, brownian_density_is_exact_and_runs_are_long) {
  const workload w = generate("brownian:100000:p=0.3:scale=256");
  EXPECT_EQ(valid_count(w), 30000u);
  std::size_t changes = 0;
  for (std::size_t i = 1; i < w.size(); ++i) changes += (w.data[i] != 0) != (w.data[i - 1] != 0);
  EXPECT_LT(changes, 100000u / 20) << "a thresholded random walk has long runs";
}

TEST(corpus, runs_have_the_mean_lengths_asked_for) {
  const workload w = generate("runs:1M:valid=10:invalid=40");
  std::size_t runs[2] = {0, 0}, lengths[2] = {0, 0};
  for (std::size_t i = 0; i < w.size(); ++i) {
    const int v = w.data[i] != 0;
    ++lengths[v];
    if (i == 0 || (w.data[i - 1] != 0) != (v != 0)) ++runs[v];
  }
  EXPECT_NEAR(static_cast<double>(lengths[1]) / static_cast<double>(runs[1]), 10.0, 0.5);
  EXPECT_NEAR(static_cast<double>(lengths[0]) / static_cast<double>(runs[0]), 40.0, 2.0);
}

TEST(corpus, edge_families) {
  EXPECT_EQ(valid_count(generate("all:1000")), 1000u);
  EXPECT_EQ(valid_count(generate("none:1000")), 0u);
  EXPECT_EQ(generate("all:0").size(), 0u);
  const workload s = generate("single:1000:at=17");
  EXPECT_EQ(valid_count(s), 1u);
  EXPECT_EQ(s.data[17], 18u);
  EXPECT_EQ(generate("single:1000").data[999], 1000u);
  const workload a = generate("alternating:7");
  EXPECT_EQ(a.data, (std::vector<std::uint32_t>{1, 0, 3, 0, 5, 0, 7}));
}

TEST(corpus, predicate_cases_list_their_invalid_indices_shuffled) {
  const workload w = generate("uniform:10000:p=0.4");
  EXPECT_FALSE(w.removal_list);
  EXPECT_EQ(w.removals.size(), w.size() - valid_count(w));
  for (const auto r : w.removals) EXPECT_EQ(w.data[r], 0u);
  EXPECT_FALSE(std::is_sorted(w.removals.begin(), w.removals.end()));
  EXPECT_EQ(std::set<std::uint32_t>(w.removals.begin(), w.removals.end()).size(), w.removals.size());
}

TEST(corpus, removal_lists_are_unique_in_range_and_of_size_k) {
  for (const char* spec : {"removal:100000:k=0.02", "removal:100000:k=0.9", "removal:1000:k=1", "removal:1000:k=0"}) {
    const workload w = generate(spec);
    EXPECT_TRUE(w.removal_list);
    EXPECT_EQ(valid_count(w), w.size()) << "removal cases carry no marks";
    const double k = std::stod(parse_spec(spec).keys.at("k"));
    EXPECT_EQ(w.removals.size(), static_cast<std::size_t>(std::llround(k * static_cast<double>(w.size())))) << spec;
    const std::set<std::uint32_t> unique(w.removals.begin(), w.removals.end());
    EXPECT_EQ(unique.size(), w.removals.size()) << spec;
    if (!unique.empty()) { EXPECT_LT(*unique.rbegin(), w.size()) << spec; }
  }
}

TEST(corpus, gains_follow_the_array_and_the_removals_index_the_array_only) {
  const workload w = generate("removal:1000:k=0.5:g=0.25");
  EXPECT_EQ(w.gains, 250u);
  ASSERT_EQ(w.size(), 1250u);
  EXPECT_EQ(w.kept(), 750u);
  for (std::size_t i = 0; i < w.size(); ++i) EXPECT_EQ(w.data[i], i + 1) << i; // distinct, non-zero
  for (const auto r : w.removals) EXPECT_LT(r, 1000u);
  // The same A and R as without gains: G is appended, nothing else drawn differently.
  const workload plain = generate("removal:1000:k=0.5");
  EXPECT_EQ(plain.removals, w.removals);
  EXPECT_EQ(plain.gains, 0u);
}

TEST(corpus, removal_r_is_the_fraction_inside_the_red_zone) {
  for (double r : {0.0, 0.25, 0.5, 0.75, 1.0}) {
    const workload w = generate("removal:100000:k=0.1:r=" + std::to_string(r));
    const std::size_t k = w.removals.size(), z = w.size() - k;
    const auto in_zone =
        static_cast<std::size_t>(std::count_if(w.removals.begin(), w.removals.end(), [&](auto i) { return i >= z; }));
    EXPECT_EQ(in_zone, static_cast<std::size_t>(std::llround(r * static_cast<double>(k)))) << r;
  }
  EXPECT_THROW((void)generate("removal:100:k=0.9:r=0"), usage_error) << "90 removals cannot all lie in 10 elements";
}

TEST(corpus, images_render_at_any_size_and_negatives_complement) {
  for (const char* img : {"finger", "hand", "bunny"}) {
    const workload pos = generate(std::string(img) + ":256K"), neg = generate(std::string("i_") + img + ":256K");
    EXPECT_EQ(pos.width, 512u);
    const double density = static_cast<double>(valid_count(pos)) / static_cast<double>(pos.size());
    EXPECT_GT(density, 0.1) << img;
    EXPECT_LT(density, 0.7) << img;
    for (std::size_t i = 0; i < pos.size(); ++i) ASSERT_NE(pos.data[i] != 0, neg.data[i] != 0) << img << " at " << i;
    EXPECT_EQ(generate(std::string(img) + ":100003").size(), 100003u);
    EXPECT_EQ(generate(std::string(img) + ":2M").width, 2048u);
  }
}

TEST(corpus, image_frequencies_differ_as_documented) {
  // Transitions along rows: the fingerprint's ridges change most often, the hand least.
  auto transitions = [](const char* spec) {
    const workload w = generate(spec);
    std::size_t t = 0;
    for (std::size_t i = 1; i < w.size(); ++i) t += (w.data[i] != 0) != (w.data[i - 1] != 0);
    return t;
  };
  EXPECT_GT(transitions("finger:1M"), transitions("bunny:1M"));
  EXPECT_GT(transitions("bunny:1M"), transitions("hand:1M"));
}

class corpus_files : public testing::Test {
protected:
  void SetUp() override {
    m_dir = std::filesystem::temp_directory_path() / ("winnow_corpus_" + std::to_string(::getpid()));
    std::filesystem::create_directories(m_dir);
  }
  void TearDown() override { std::filesystem::remove_all(m_dir); }
  std::filesystem::path m_dir;
};

TEST_F(corpus_files, png_gray_rgb_rgba_and_pgm_are_thresholded_by_luminance) {
  // 4×1 pixels: luminance 0, 100, 200, 255.
  const std::uint8_t gray[] = {0, 100, 200, 255};
  const std::uint8_t rgb[] = {0, 0, 0, 100, 100, 100, 200, 200, 200, 255, 255, 255};
  const std::uint8_t rgba[] = {255, 255, 255, 0, 100, 100, 100, 255, 200, 200, 200, 255, 255, 255, 255, 255};
  ASSERT_TRUE(stbi_write_png((m_dir / "g.png").c_str(), 4, 1, 1, gray, 4));
  ASSERT_TRUE(stbi_write_png((m_dir / "c.png").c_str(), 4, 1, 3, rgb, 12));
  ASSERT_TRUE(stbi_write_png((m_dir / "a.png").c_str(), 4, 1, 4, rgba, 16));
  {
    std::FILE* f = std::fopen((m_dir / "g.pgm").c_str(), "wb");
    std::fputs("P5\n4 1\n255\n", f);
    std::fwrite(gray, 1, 4, f);
    std::fclose(f);
  }
  for (const char* name : {"g.png", "c.png", "a.png", "g.pgm"}) {
    const workload w = generate("file:" + (m_dir / name).string() + ":threshold=150");
    EXPECT_EQ(w.data, (std::vector<std::uint32_t>{0, 0, 3, 4})) << name << " (a transparent white pixel is background)";
    EXPECT_EQ(w.width, 4u);
  }
  EXPECT_EQ(generate("file:" + (m_dir / "g.png").string() + ":threshold=0").data,
            (std::vector<std::uint32_t>{1, 2, 3, 4}));
}

// The header is read from the file's first MiB: a larger file (here noise, 2 MiB of pixels that do
// not compress) is read whole after it, and decodes like any other.
TEST_F(corpus_files, a_png_over_a_mebibyte_decodes) {
  constexpr int side = 1448; // ≈ 2 MiB of gray pixels
  std::vector<std::uint8_t> gray(std::size_t{side} * side);
  std::uint32_t x = 12345;
  std::size_t bright = 0;
  for (auto& g : gray) {
    x = x * 1664525u + 1013904223u;
    g = static_cast<std::uint8_t>(x >> 24);
    bright += g >= 128;
  }
  const auto path = m_dir / "big.png";
  ASSERT_TRUE(stbi_write_png(path.c_str(), side, side, 1, gray.data(), side));
  ASSERT_GT(std::filesystem::file_size(path), std::uintmax_t{1} << 20);
  const workload w = generate("file:" + path.string());
  EXPECT_EQ(w.size(), gray.size());
  EXPECT_EQ(w.kept(), bright);
}

TEST_F(corpus_files, a_missing_file_is_a_usage_error_naming_it) {
  const std::string path = (m_dir / "nope.png").string();
  try {
    (void)generate("file:" + path);
    FAIL() << "no error";
  } catch (const usage_error& e) { EXPECT_EQ(std::string(e.what()), "corpus: file:" + path + ": no such file"); }
}

/// Writes bytes to a file of the fixture's folder; returns the file: spec prefix for it.
std::string write_bytes(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
  return "file:" + path.string();
}

/// The message of the usage_error that generating `spec` throws ("" when none).
std::string refusal(const std::string& spec) {
  try {
    (void)generate(spec);
  } catch (const usage_error& e) { return e.what(); }
  return "";
}

TEST_F(corpus_files, sixteen_bit_and_ascii_pgm_read_as_the_netpbm_format_says) {
  // 16-bit samples are big-endian: 0xFF00 is bright (255 on the 8-bit scale after rounding),
  // 0x00FF is dark (1). stb_image read them byte-swapped.
  const std::string p16 = write_bytes(m_dir / "w.pgm", std::string("P5\n2 1\n65535\n") + "\xFF\x00\x00\xFF"s);
  EXPECT_EQ(generate(p16 + ":threshold=128").data, (std::vector<std::uint32_t>{1, 0}));
  const std::string p2 = write_bytes(m_dir / "a.pgm", "P2\n# a comment\n4 1\n255\n0 100\n200 255\n");
  EXPECT_EQ(generate(p2 + ":threshold=150").data, (std::vector<std::uint32_t>{0, 0, 3, 4}));
  const std::string small_max = write_bytes(m_dir / "m.pgm", "P2 2 1 3 3 1\n");
  EXPECT_EQ(generate(small_max + ":threshold=128").data, (std::vector<std::uint32_t>{1, 0})); // 3/3 → 255, 1/3 → 85
}

TEST_F(corpus_files, hostile_files_are_refused_before_anything_is_allocated) {
  const auto dir = m_dir;
  // A width whose digits run on (UBSan found stb_image's int overflow on this; issue 17).
  EXPECT_THAT(refusal(write_bytes(dir / "o.pgm", "P5\n1100555555555555555555555555 100\n255\n" + std::string(10, 'x'))),
              testing::HasSubstr("PGM width is over 4294967295"));
  // The header promises 64 × 64, the file holds 100 bytes: refused, never read as zeros or garbage.
  EXPECT_THAT(refusal(write_bytes(dir / "t.pgm", "P5\n64 64\n255\n" + std::string(100, '\x80'))),
              testing::HasSubstr("truncated: its header says 64 × 64 (4096 bytes of samples), the file holds 100"));
  EXPECT_THAT(refusal(write_bytes(dir / "t2.pgm", "P2\n3 3\n255\n1 2 3\n")), testing::HasSubstr("truncated"));
  EXPECT_THAT(refusal(write_bytes(dir / "big.pgm", "P5\n100000 100000\n255\n")),
              testing::HasSubstr("100000 × 100000 pixels is over the corpus limit"));
  EXPECT_THAT(refusal(write_bytes(dir / "e.pgm", "P5\n0 5\n255\n")), testing::HasSubstr("the image is empty"));
  EXPECT_THAT(refusal(write_bytes(dir / "s.pgm", "P2\n2 1\n10\n5 11\n")),
              testing::HasSubstr("sample 11 is over its maxval 10"));
  EXPECT_THAT(refusal(write_bytes(dir / "x.pgm", "P5\n2 1\n0\n\x01\x01")), testing::HasSubstr("maxval is 0"));
  // Formats the documentation does not promise are refused by their first bytes.
  EXPECT_THAT(refusal(write_bytes(dir / "x.bmp", "BM" + std::string(60, '\0'))), testing::HasSubstr("a BMP"));
  EXPECT_THAT(refusal(write_bytes(dir / "x.jpg", "\xFF\xD8\xFF\xE0" + std::string(60, '\0'))),
              testing::HasSubstr("a JPEG"));
  EXPECT_THAT(refusal(write_bytes(dir / "x.ppm", "P6\n1 1\n255\n\0\0\0"s)), testing::HasSubstr("P6, not a PGM"));
  EXPECT_THAT(refusal(write_bytes(dir / "x.png", "")), testing::HasSubstr("neither a PNG nor a PGM"));
  // A PNG cut short, and one whose header claims 32768² pixels but holds no image data.
  const std::uint8_t gray[] = {0, 100, 200, 255};
  ASSERT_TRUE(stbi_write_png((dir / "g.png").c_str(), 4, 1, 1, gray, 4));
  std::string png;
  {
    std::ifstream in(dir / "g.png", std::ios::binary);
    png.assign(std::istreambuf_iterator<char>(in), {});
  }
  EXPECT_THAT(refusal(write_bytes(dir / "cut.png", png.substr(0, png.size() - 20))), testing::HasSubstr("PNG: "));
  std::string huge = png.substr(0, 33);
  huge[16] = 0, huge[17] = 0, huge[18] = char(0x80), huge[19] = 0; // width 32768 (IHDR's CRC no longer matches)
  EXPECT_THAT(refusal(write_bytes(dir / "huge.png", huge)), testing::HasSubstr("PNG: "));
  // fuzz_image's first finding: 69 valid bytes whose IHDR claims 771 M pixels made the decoder
  // allocate 3 GB before the missing rows were noticed. Refused from the header now.
  const std::string claims = "\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR\x2e\0\0\x04\0\0\0\x01\x08\0\0\0\0\xdcWP\x11"
                             "\0\0\0\x0dIDATx\x9c\x63\x60\x48\x39\xf1\x1f\x32\x0b\xc0\x02\x2c\x9f\xb1\x85\x62"
                             "\0\0\0\0IEND\xae"
                             "B`\x82"s;
  EXPECT_THAT(refusal(write_bytes(dir / "claims.png", claims)), testing::HasSubstr("cannot be in a file of"));
}

} // namespace
} // namespace winnow

namespace winnow {
namespace {

TEST(workload, preserve_list_is_the_complement_of_r_in_a_fixed_random_order) {
  const workload w = generate("removal:1000:k=0.3:seed=4");
  const std::vector<std::uint32_t> p = w.preserved();
  ASSERT_EQ(p.size(), w.kept());
  std::vector<std::uint32_t> all = p;
  all.insert(all.end(), w.removals.begin(), w.removals.end());
  std::sort(all.begin(), all.end());
  for (std::size_t i = 0; i < all.size(); ++i) ASSERT_EQ(all[i], i) << "P and R together must be every index once";
  EXPECT_FALSE(std::is_sorted(p.begin(), p.end())) << "P comes in a random order, as R does";
  EXPECT_EQ(p, w.preserved()) << "the same order every time";
  EXPECT_TRUE(generate("removal:100:k=1").preserved().empty());
  EXPECT_EQ(generate("removal:100:k=0").preserved().size(), 100u);
}

TEST(workload, payloads_are_indices_for_a_removal_case_as_generated_and_for_no_other_stream) {
  EXPECT_TRUE(payloads_are_indices(generate("removal:100003:k=0.3:seed=4")));
  EXPECT_TRUE(payloads_are_indices(generate("removal:3000000:k=0.02"))) << "more than one chunk of 2^20";
  EXPECT_TRUE(payloads_are_indices(generate("all:1000")));
  EXPECT_FALSE(payloads_are_indices(generate("uniform:1000:p=0.5"))) << "payload 0 at the invalid elements";
  workload w = generate("removal:3000000:k=0.02");
  w.data[2'999'999] = 7;
  EXPECT_FALSE(payloads_are_indices(w)) << "one element of the last chunk changed";
  w = generate("removal:3000000:k=0.02");
  w.data[0] = 0;
  EXPECT_FALSE(payloads_are_indices(w)) << "the first element cleared";
  EXPECT_TRUE(payloads_are_indices(workload{})) << "an empty stream";
}

} // namespace
} // namespace winnow
