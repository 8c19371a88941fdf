// The check of a gl result on the device (gl/src/device_check.hpp), on a context with compute shaders
// (4.5, ES 3.1): it catches a dropped, a duplicated and an invented element, an element out of order
// where order counts, a changed input, and passes a right result, in order or in stacks; on a 3.3
// context it leaves the check to the host. Outputs are made here by hand, as textures, not by an
// algorithm. Then the harness: every gl algorithm's record says where it was checked (the plans' on
// the device where it can).
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "../../gl/src/device_check.hpp"
#include "../device_check_cases.hpp"
#include "winnow/backends.hpp"
#include "winnow/corpus.hpp"
#include "winnow/gl/backend.hpp"
#include "winnow/gl/context.hpp"
#include "winnow/harness.hpp"
#include "winnow/reference.hpp"
#include "winnow/shader_era/plan.hpp"

namespace winnow::gl {
namespace {

#define WINNOW_REQUIRE_GL()                                                                                            \
  if (auto reason = unavailable_reason()) GTEST_SKIP() << *reason

bool computes() { return context::get().info().kind != context_kind::gl33; }

/// `words` in a texture of rows of `width`, zeros after them.
texture texture_of(const std::vector<std::uint32_t>& words, int width) {
  const int rows = std::max<int>(
      1, static_cast<int>((words.size() + static_cast<std::size_t>(width) - 1) / static_cast<std::size_t>(width)));
  std::vector<std::uint32_t> padded(words);
  padded.resize(static_cast<std::size_t>(rows) * static_cast<std::size_t>(width), 0);
  texture t(texel_format::r32ui, width, rows);
  t.upload(padded.data(), rows);
  return t;
}

struct check_case {
  prepared_case c;
  explicit check_case(const std::string& spec) : c{generate(spec), {}} { c.expected = reference_compact(c.w); }
  std::optional<bool> check(const std::vector<std::uint32_t>& values, bool stable,
                            const std::vector<std::uint32_t>* input = nullptr) {
    const texture out = texture_of(values, 512), in = texture_of(input ? *input : c.w.data, 512);
    return matches_on_device({c.w, c.expected, *c.copies}, stable, {out, values.size(), std::nullopt, in});
  }
};

TEST(gl_device_check, passes_the_expected_stream_and_catches_a_dropped_a_duplicated_and_an_invented_element) {
  WINNOW_REQUIRE_GL();
  check_case k("removal:100003:k=0.5");
  const std::vector<std::uint32_t>& e = k.c.expected;
  if (!computes()) {
    EXPECT_EQ(k.check(e, true), std::nullopt) << "no compute shaders on a 3.3 context: the host checks";
    return;
  }
  testing::expect_the_check_catches_wrong_elements(
      e, k.c.w.removals[0] + 1, // the payload of a removed element: index + 1
      [&](const std::vector<std::uint32_t>& values, bool stable) { return k.check(values, stable); });
  std::vector<std::uint32_t> input = k.c.w.data;
  input[k.c.w.removals[3]] = 0;
  EXPECT_EQ(k.check(e, true, &input), true) << "payload 0 at a removed index (a mark pass)";
  input[e[10] - 1] = 0; // payload = index + 1: a kept element's
  EXPECT_EQ(k.check(e, true, &input), false) << "a kept element's input cleared";
}

TEST(gl_device_check, reads_survivors_in_stacks) {
  WINNOW_REQUIRE_GL();
  if (!computes()) GTEST_SKIP() << "no compute shaders on a 3.3 context";
  check_case k("uniform:20000:p=0.5");
  const std::vector<std::uint32_t>& e = k.c.expected;
  constexpr std::uint32_t log2w = 6;
  const std::uint64_t bands = (shader_era::stack_position(e.size() - 1, log2w) >> (log2w + 3)) + 1;
  std::vector<std::uint32_t> stacked(bands << (log2w + 3), 0);
  for (std::size_t t = 0; t < e.size(); ++t) stacked[shader_era::stack_position(t, log2w)] = e[t];
  const texture in = texture_of(k.c.w.data, 512);
  texture out = texture_of(stacked, 1 << log2w);
  EXPECT_EQ(matches_on_device({k.c.w, k.c.expected, *k.c.copies}, true, {out, e.size(), log2w, in}), true);
  std::swap(stacked[shader_era::stack_position(3, log2w)], stacked[shader_era::stack_position(4, log2w)]);
  out = texture_of(stacked, 1 << log2w);
  EXPECT_EQ(matches_on_device({k.c.w, k.c.expected, *k.c.copies}, true, {out, e.size(), log2w, in}), false);
}

TEST(gl_device_check, every_gl_algorithm_says_where_it_was_checked) {
  WINNOW_REQUIRE_GL();
  const registry& reg = all_backends();
  for (const char* spec : {"uniform:20011:p=0.3", "removal:20011:k=0.4"}) {
    prepared_case c = prepare_case(generate(spec));
    for (const auto& e : reg.find_backend("gl").algorithms) {
      const record r = run_case(reg, e, {}, c, {.warmup = 0, .reps = 1, .check = check_place::device});
      if (r.skipped) continue;
      EXPECT_TRUE(r.verified) << e.info.full_name() << " " << spec << ": " << r.mismatch;
      // gl/geometry's survivors are a transform-feedback capture, read back.
      const bool on_device = computes() && e.info.name != "geometry";
      EXPECT_EQ(r.checked_on, on_device ? "device" : "host") << e.info.full_name() << " " << spec;
    }
  }
}

} // namespace
} // namespace winnow::gl
