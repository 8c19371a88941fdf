// The check of a vk result on the device (vulkan/src/device_check.hpp) catches what the host's check
// catches: a dropped, a duplicated and an invented element, an element out of order where order
// counts, one torn apart, a changed input; and passes a right result, in any order where order does
// not count. Outputs are made here by hand, not by an algorithm. Then the harness with
// check_place::device: every vk and vkfrag algorithm verified on the device, and a record that says
// so; the compute plans' prepare copies the case's input from one upload shared by the case's
// records (case_input.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "../device_check_cases.hpp"
#include "winnow/backends.hpp"
#include "winnow/corpus.hpp"
#include "winnow/harness.hpp"
#include "winnow/reference.hpp"
#include "winnow/vulkan/device.hpp"

// Private headers of winnow::vulkan (tests may look inside).
#include "../../vulkan/src/case_input.hpp"
#include "../../vulkan/src/device_check.hpp"
#include "../../vulkan/src/wide.hpp"

namespace winnow::vk {
namespace {

#define WINNOW_REQUIRE_VK()                                                                                            \
  if (auto reason = unavailable_reason()) GTEST_SKIP() << *reason

/// A case, its expected stream, its input and the check's device copy of them.
struct check_case {
  workload w;
  std::vector<std::uint32_t> expected;
  case_input input;
  expected_copy copy;
  explicit check_case(const std::string& spec)
      : w(generate(spec)), expected(reference_compact(w)), input(w.data, w.removals), copy(w, expected, input) {}

  /// Whether `values` (elements of `words` words) and, out of place, `after` (the input after the
  /// run, `words` per element) pass the device check.
  std::optional<bool> check(const std::vector<std::uint32_t>& values, bool stable, std::uint32_t words = 1,
                            const std::vector<std::uint32_t>* after = nullptr) {
    buffer out("test output", 4 * values.size()), in("test input after", after ? 4 * after->size() : 4);
    out.upload(values);
    if (after) in.upload(*after);
    return copy.matches({out.address(), values.size() / words, words, after ? in.address() : 0}, input, stable);
  }
};

TEST(vk_device_check, passes_the_expected_stream_and_catches_a_dropped_a_duplicated_and_an_invented_element) {
  WINNOW_REQUIRE_VK();
  check_case c("uniform:100003:p=0.5");
  const auto removed = std::find(c.w.data.begin(), c.w.data.end(), 0u) - c.w.data.begin();
  // The payload an invalid element would have had: index + 1.
  testing::expect_the_check_catches_wrong_elements(
      c.expected, static_cast<std::uint32_t>(removed) + 1,
      [&](const std::vector<std::uint32_t>& values, bool stable) { return c.check(values, stable); });
}

TEST(vk_device_check, catches_an_element_torn_apart_and_a_changed_input) {
  WINNOW_REQUIRE_VK();
  check_case c("removal:20000:k=0.3");
  const std::vector<std::uint32_t>& e = c.expected;
  std::vector<std::uint32_t> wide = widen(e, 4, e.size());
  EXPECT_EQ(c.check(wide, true, 4), true);
  wide[4 * 7 + 2] ^= 1;
  EXPECT_EQ(c.check(wide, true, 4), false) << "a word of element 7 not its payload's";

  // Out of place: the input may hold payload 0 at a removed index (a mark phase), nothing else.
  std::vector<std::uint32_t> input = c.w.data;
  EXPECT_EQ(c.check(e, true, 1, &input), true);
  input[c.w.removals[3]] = 0;
  EXPECT_EQ(c.check(e, true, 1, &input), true) << "payload 0 at a removed index";
  const std::uint32_t kept_index = e[10] - 1; // payload = index + 1
  input[kept_index] = 0;
  EXPECT_EQ(c.check(e, true, 1, &input), false) << "a kept element's input cleared";
  std::vector<std::uint32_t> wide_input = widen(c.w.data, 2, c.w.size());
  EXPECT_EQ(c.check(widen(e, 2, e.size()), false, 2, &wide_input), true) << "64-bit elements, payload first";
  wide_input[2 * 5] ^= 4;
  EXPECT_EQ(c.check(widen(e, 2, e.size()), false, 2, &wide_input), false) << "a 64-bit input's payload changed";
}

TEST(vk_device_check, an_unstable_check_of_repeated_expected_values_is_left_to_the_host) {
  WINNOW_REQUIRE_VK();
  workload w;
  w.spec = "repeats (test)";
  w.data = {3, 0, 3, 5};
  const std::vector<std::uint32_t> expected = {3, 3, 5};
  const case_input input(w.data, w.removals);
  expected_copy copy(w, expected, input);
  buffer out("test output", 12);
  out.upload(expected);
  EXPECT_EQ(copy.matches({out.address(), 3}, input, false), std::nullopt);
  EXPECT_EQ(copy.matches({out.address(), 3}, input, true), true);
}

TEST(vk_case_input, is_uploaded_once_per_case_and_holds_the_input_as_generated) {
  WINNOW_REQUIRE_VK();
  const workload w = generate("removal:100003:k=0.1");
  EXPECT_EQ(shared_input(nullptr, w.data, w.removals), nullptr) << "no case to share it: each prepare uploads its own";
  device_copies copies;
  const case_input* in = shared_input(&copies, w.data, w.removals);
  ASSERT_NE(in, nullptr);
  EXPECT_EQ(shared_input(&copies, w.data, w.removals), in) << "the case's second record finds the first's copy";
  EXPECT_EQ(in->data.download(w.size()), w.data);
  EXPECT_EQ(in->removals.download(w.removals.size()), w.removals);
}

TEST(vk_case_input, a_stream_from_the_shared_copy_equals_the_one_widened_and_uploaded_from_the_host) {
  WINNOW_REQUIRE_VK();
  const workload w = generate("removal:100003:k=0.1");
  const std::uint64_t padded = w.size() + 61; // as vk/ballot pads to whole tiles: invalid elements
  device_copies copies;
  for (const std::uint32_t words : {1u, 2u, 4u}) {
    const std::vector<std::uint32_t> host = widen(w.data, words, padded);
    EXPECT_EQ(stream_buffer("shared", w, words, padded, &copies).download(host.size()), host) << words << " words";
    EXPECT_EQ(stream_buffer("uploaded", w, words, padded, nullptr).download(host.size()), host) << words << " words";
  }
  bool made_here = false;
  (void)copies.get<case_input>("vk input", [&] {
    made_here = true;
    return std::make_unique<case_input>(w.data, w.removals);
  });
  EXPECT_FALSE(made_here) << "32-bit elements copy from the case's shared input, made by the first";
  EXPECT_EQ(removals_buffer("shared", w, &copies).download(w.removals.size()), w.removals);
  EXPECT_EQ(removals_buffer("uploaded", w, nullptr).download(w.removals.size()), w.removals);
}

TEST(vk_device_check, every_vk_and_vkfrag_algorithm_is_verified_on_the_device_and_its_record_says_so) {
  WINNOW_REQUIRE_VK();
  const registry& reg = all_backends();
  std::vector<const algorithm_entry*> entries;
  for (const char* api : {"vk", "vkfrag"})
    if (!reg.unavailable_reason(api))
      for (const auto& e : reg.find_backend(api).algorithms) entries.push_back(&e);
  for (const char* spec : {"uniform:100003:p=0.3", "removal:100003:k=0.4", "none:1000"}) {
    prepared_case c = prepare_case(generate(spec));
    for (const algorithm_entry* entry : entries) {
      const algorithm_entry& e = *entry;
      // vk/lookback's defaults do not run on lavapipe (docs/driver-quirks.md); these run everywhere.
      const params p = e.info.name == "lookback" ? params{{"state", "packed"}, {"lookback", "all"}} : params{};
      // Twice: the second record of the case copies its input from the first's upload.
      for (int record_of_case = 0; record_of_case < 2; ++record_of_case) {
        const record r = run_case(reg, e, p, c, {.warmup = 0, .reps = 1, .check = check_place::device});
        ASSERT_FALSE(r.skipped.has_value()) << e.info.full_name() << ": " << r.skipped.value_or("");
        EXPECT_TRUE(r.verified) << e.info.full_name() << " " << spec << ": " << r.mismatch;
        EXPECT_EQ(r.checked_on, "device") << e.info.full_name() << " " << spec;
        EXPECT_EQ(r.kept, c.expected.size()) << e.info.full_name();
      }
    }
  }
}

TEST(vk_device_check, reads_survivors_in_order_and_in_stacks_on_the_fragment_path) {
  WINNOW_REQUIRE_VK();
  const registry& reg = all_backends();
  if (auto why = reg.unavailable_reason("vkfrag")) GTEST_SKIP() << *why;
  prepared_case c = prepare_case(generate("uniform:100003:p=0.3"));
  // stacks (the default) is in the test above; lines and rectangles leave the survivors in order.
  for (const char* concat : {"lines", "rects"})
    for (const char* algo : {"vkfrag/horn", "vkfrag/jj"}) {
      const record r = run_case(reg, reg.find(algo), {{"concat", concat}}, c,
                                {.warmup = 0, .reps = 1, .check = check_place::device});
      EXPECT_TRUE(r.verified) << algo << " concat=" << concat << ": " << r.mismatch;
      EXPECT_EQ(r.checked_on, "device") << algo << " concat=" << concat;
    }
}

} // namespace
} // namespace winnow::vk
