#include <gtest/gtest.h>

#include "winnow/corpus.hpp"
#include "winnow/error.hpp"

namespace winnow {
namespace {

std::string canonical(std::string_view s) { return to_string(parse_spec(s)); }

/// The message of the usage_error that parsing `s` throws (fails the test if none is thrown).
std::string parse_error(std::string_view s) {
  try {
    (void)parse_spec(s);
  } catch (const usage_error& e) { return e.what(); }
  ADD_FAILURE() << "no usage_error for '" << s << "'";
  return {};
}

TEST(spec, sizes_parse_and_print_in_binary_multiples) {
  EXPECT_EQ(parse_size("1000"), 1000u);
  EXPECT_EQ(parse_size("256K"), 262144u);
  EXPECT_EQ(parse_size("4M"), 4u << 20);
  EXPECT_EQ(parse_size("1G"), 1u << 30);
  EXPECT_EQ(format_size(262144), "256K");
  EXPECT_EQ(format_size(3u << 20), "3M");
  EXPECT_EQ(format_size(1000), "1000");
  EXPECT_EQ(format_size(0), "0");
  EXPECT_EQ(format_size(1025), "1025");
}

TEST(spec, canonical_form_fills_defaults_in_documented_order) {
  EXPECT_EQ(canonical("uniform"), "uniform:256K:p=0.5:seed=1");
  EXPECT_EQ(canonical("uniform:4M:seed=7:p=0.10"), "uniform:4M:p=0.1:seed=7");
  EXPECT_EQ(canonical("finger:1048576"), "finger:1M");
  EXPECT_EQ(canonical("removal:1M:k=0.02"), "removal:1M:k=0.02:r=uniform:seed=1");
  EXPECT_EQ(canonical("removal:1M:r=0.25"), "removal:1M:k=0.1:r=0.25:seed=1");
  // g (gains, §4.6) came after records existed: shown only when not 0, so their specs stay canonical.
  EXPECT_EQ(canonical("removal:1M:k=0.02:g=0"), "removal:1M:k=0.02:r=uniform:seed=1");
  EXPECT_EQ(canonical("removal:1M:g=0.010"), "removal:1M:k=0.1:r=uniform:seed=1:g=0.01");
  EXPECT_EQ(canonical("single:1000"), "single:1000:at=999");
  EXPECT_EQ(canonical("runs:1000:invalid=3"), "runs:1000:valid=32:invalid=3:seed=1");
  EXPECT_EQ(canonical("file:a:b.png:threshold=9"), "file:a:b.png:threshold=9");
  EXPECT_EQ(canonical("file:x.pgm"), "file:x.pgm:threshold=128");
}

TEST(spec, canonical_form_round_trips) {
  for (const char* s : {"uniform:4M:p=0.1:seed=7", "brownian:100003:p=0.3:scale=256:seed=1", "i_bunny:4M", "none:0",
                        "removal:2G:k=0.9:r=uniform:seed=3", "file:dir/img.png:threshold=0"})
    EXPECT_EQ(canonical(canonical(s)), canonical(s)) << s;
}

TEST(spec, errors_name_the_bad_part_and_the_accepted_values) {
  EXPECT_EQ(parse_error("unifrom:1M"), "corpus: unknown family 'unifrom' (did you mean 'uniform'?) (accepted: uniform, "
                                       "runs, brownian, finger, i_finger, hand, i_hand, bunny, "
                                       "i_bunny, file, all, none, single, alternating, removal)");
  EXPECT_EQ(parse_error("uniform:1Q"),
            "corpus: bad size '1Q' (expected digits with an optional K, M or G suffix, e.g. 1000, 256K, 4M)");
  EXPECT_EQ(parse_error("uniform:1M:q=3"),
            "corpus: unknown key 'q' for uniform (did you mean 'p'?) (accepted: p, seed)");
  EXPECT_EQ(parse_error("uniform:1M:colour=3"),
            "corpus: unknown key 'colour' for uniform (accepted: p, seed)"); // nothing near
  EXPECT_EQ(parse_error("finger:1M:p=3"), "corpus: unknown key 'p' for finger (it takes no keys)");
  EXPECT_EQ(parse_error("uniform:1M:p=1.5"), "corpus: uniform: p='1.5' must be a number in [0, 1]");
  EXPECT_EQ(parse_error("uniform:1M:p=x"), "corpus: uniform: p='x' must be a number in [0, 1]");
  EXPECT_EQ(parse_error("uniform:1M:p=0.1:p=0.2"), "corpus: key 'p' given twice in 'uniform:1M:p=0.1:p=0.2'");
  EXPECT_EQ(parse_error("uniform:1M:0.5"),
            "corpus: '0.5' in 'uniform:1M:0.5' is not key=value (the size, if any, comes right after the family)");
  EXPECT_EQ(parse_error("uniform:5G"),
            "corpus: size 5G is over the limit of 4294967295 elements (payloads are index + 1 in 32 bits)");
  EXPECT_EQ(parse_error("runs:1M:valid=0.5"), "corpus: runs: valid='0.5' must be a number ≥ 1");
  EXPECT_EQ(parse_error("removal:1M:seed=-1"), "corpus: removal: seed='-1' must be an integer in [0, 4294967295]");
  EXPECT_EQ(parse_error("single:10:at=10"), "corpus: single: at=10 must be below n = 10");
  EXPECT_EQ(parse_error("single:0"), "corpus: single needs at least one element");
  EXPECT_EQ(parse_error("file:"), "corpus: file: needs a path (file:PATH[:threshold=T])");
  EXPECT_EQ(parse_error(""), "corpus: empty case spec (expected family[:size][:key=value...])");
}

TEST(spec, every_family_parses_with_its_defaults) {
  for (const auto& f : families()) {
    const std::string spec = f.sized ? f.name + ":64" : f.name + ":some.png";
    EXPECT_NO_THROW((void)parse_spec(spec)) << spec;
  }
}

TEST(spec, gains_count_in_the_elements_and_stay_within_the_limit) {
  EXPECT_EQ(gains_of(parse_spec("removal:1000:g=0.25")), 250u);
  EXPECT_EQ(elements_of(parse_spec("removal:1000:g=0.25")), 1250u);
  EXPECT_EQ(gains_of(parse_spec("uniform:1000")), 0u);
  EXPECT_EQ(parse_error("removal:1000:g=2"), "corpus: removal: g='2' must be a number in [0, 1]");
  EXPECT_EQ(parse_error("removal:1000:r=1:g=0.1").rfind("corpus: removal: r=1 with gains (g=0.1)", 0), 0u);
  EXPECT_NO_THROW((void)parse_spec("removal:1000:r=1:g=0"));
  EXPECT_EQ(parse_error("removal:4294967295:g=0.5").rfind("corpus: removal: n + gains = ", 0), 0u);
}

} // namespace
} // namespace winnow
