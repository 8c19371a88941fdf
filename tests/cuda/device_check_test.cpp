// The check of a result on the device (cuda/src/device_check.hpp) catches what the host's check
// catches: a dropped, a duplicated and an invented element, an element out of order where order
// counts, one torn apart, a changed input, a non-zero tail; and passes a right result, in any order
// where order does not count. Outputs are made here by hand, not by an algorithm. Then the harness
// with check_place::device: every cuda algorithm verified on the device, and a record that says so;
// their prepare copies the case's input from one upload shared by the case's records (case_input.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

#include "winnow/backends.hpp"
#include "winnow/corpus.hpp"
#include "../device_check_cases.hpp"
#include "need_device.hpp"
#include "winnow/cuda/device.hpp"
#include "winnow/harness.hpp"
#include "winnow/reference.hpp"

// Private headers of winnow::cuda (tests may look inside).
#include "../../cuda/src/buffer.hpp"
#include "../../cuda/src/case_input.hpp"
#include "../../cuda/src/context.hpp"
#include "../../cuda/src/device_check.hpp"
#include "../../cuda/src/dispatch/mark.hpp"

namespace winnow::cuda {
namespace {

/// A case, its expected stream, and the check's device copy of them: made from the expected stream,
/// or (`shared`) from the case's input on the device where the corpus's payloads allow it.
struct check_case {
  workload w;
  std::vector<std::uint32_t> expected;
  std::unique_ptr<case_input> on_device;
  expected_copy copy;
  explicit check_case(const std::string& spec, bool shared = false) : check_case(generate(spec), shared) {}
  check_case(workload made, bool shared)
      : w(std::move(made)), expected(reference_compact(w)),
        on_device(shared ? std::make_unique<case_input>(w, stream()) : nullptr),
        copy(w, expected, on_device.get(), stream()) {}
  static cudaStream_t stream() { return context::get().stream(); }

  /// Whether `values` (elements of `words` words) and, out of place, `input` pass the device check.
  /// `shared`: the case's input on the device that the check takes as pristine (else its own upload).
  std::optional<bool> check(const std::vector<std::uint32_t>& values, bool stable, unsigned words = 1,
                            const std::vector<std::uint32_t>* input = nullptr, const case_input* shared = nullptr) {
    device_buffer<std::uint32_t> out(values.size()), in(input ? input->size() : 0);
    out.upload(values.data(), values.size(), stream());
    if (input) in.upload(input->data(), input->size(), stream());
    const device_result r{.who = "test",
                          .values = out.get(),
                          .count = values.size() / words,
                          .words = words,
                          .input_after = input ? in.get() : nullptr};
    return copy.matches(r, w, shared ? shared : on_device.get(), stable, stream());
  }
};

TEST(cuda_device_check, passes_the_expected_stream_and_catches_a_dropped_a_duplicated_and_an_invented_element) {
  WINNOW_NEED_DEVICE();
  check_case c("uniform:100003:p=0.5");
  const auto removed = std::find(c.w.data.begin(), c.w.data.end(), 0u) - c.w.data.begin();
  // The payload an invalid element would have had: index + 1.
  testing::expect_the_check_catches_wrong_elements(
      c.expected, static_cast<std::uint32_t>(removed) + 1,
      [&](const std::vector<std::uint32_t>& values, bool stable) { return c.check(values, stable); });
}

TEST(cuda_device_check, from_the_input_on_the_device_it_catches_the_same_and_an_element_out_of_order) {
  WINNOW_NEED_DEVICE();
  for (const char* spec : {"uniform:100003:p=0.5", "removal:100003:k=0.3", "removal:100003:k=0.3:r=1"}) {
    SCOPED_TRACE(spec);
    check_case c(spec, true);
    ASSERT_TRUE(c.copy.from_input()) << "every kept payload is its index + 1: no expected stream uploaded";
    const auto removed =
        c.w.removal_list ? c.w.removals[0] : std::find(c.w.data.begin(), c.w.data.end(), 0u) - c.w.data.begin();
    testing::expect_the_check_catches_wrong_elements(
        c.expected, static_cast<std::uint32_t>(removed) + 1,
        [&](const std::vector<std::uint32_t>& values, bool stable) { return c.check(values, stable); });
    std::vector<std::uint32_t> swapped = c.expected;
    std::swap(swapped[70], swapped[71]);
    EXPECT_EQ(c.check(swapped, true), false) << "two neighbours swapped, where order counts";
    EXPECT_EQ(c.check(swapped, false), true) << "two neighbours swapped, where it does not";
  }
}

TEST(cuda_device_check, a_stream_not_made_by_the_corpus_rule_is_checked_against_its_expected_stream) {
  WINNOW_NEED_DEVICE();
  // A kept payload that is not its index + 1: the bitmap cannot stand for the expected stream.
  workload w = generate("removal:20000:k=0.3");
  const std::uint32_t kept_index = reference_compact(w)[10] - 1;
  w.data[kept_index] = static_cast<std::uint32_t>(w.size()) + 5; // distinct from every other payload
  check_case c(std::move(w), true);
  EXPECT_FALSE(c.copy.from_input());
  EXPECT_EQ(c.check(c.expected, true), true);
  std::vector<std::uint32_t> right_by_index = c.expected;
  right_by_index[10] = kept_index + 1;
  EXPECT_EQ(c.check(right_by_index, true), false) << "the payload the case has, not its index + 1";
  EXPECT_EQ(c.check(right_by_index, false), false);
}

TEST(cuda_device_check, catches_an_element_torn_apart_a_changed_input_and_a_non_zero_tail) {
  WINNOW_NEED_DEVICE();
  check_case c("removal:20000:k=0.3");
  const std::vector<std::uint32_t>& e = c.expected;
  std::vector<std::uint32_t> wide;
  for (const std::uint32_t v : e)
    for (unsigned w = 0; w < 4; ++w) wide.push_back(w ? widen_word(v, w) : v);
  EXPECT_EQ(c.check(wide, true, 4), true);
  wide[4 * 7 + 2] ^= 1;
  EXPECT_EQ(c.check(wide, true, 4), false) << "a word of element 7 not its payload's";

  // Out of place: the input may hold payload 0 at a removed index (a mark phase), nothing else;
  // checked against the check's own upload and against the case's shared input alike.
  const case_input shared(c.w, check_case::stream());
  for (const case_input* pristine : {static_cast<const case_input*>(nullptr), &shared}) {
    SCOPED_TRACE(pristine ? "the case's shared input" : "the check's own upload");
    std::vector<std::uint32_t> input = c.w.data;
    EXPECT_EQ(c.check(e, true, 1, &input, pristine), true);
    input[c.w.removals[3]] = 0;
    EXPECT_EQ(c.check(e, true, 1, &input, pristine), true) << "payload 0 at a removed index";
    const std::uint32_t kept_index = e[10] - 1; // payload = index + 1
    input[kept_index] = 0;
    EXPECT_EQ(c.check(e, true, 1, &input, pristine), false) << "a kept element's input cleared";
  }

  // billeter_split: the invalid elements after the count are 0.
  std::vector<std::uint32_t> split = e;
  split.resize(c.w.size(), 0);
  device_buffer<std::uint32_t> out(split.size());
  out.upload(split.data(), split.size(), check_case::stream());
  device_result r{.who = "test", .values = out.get(), .count = e.size(), .zeros_to = split.size()};
  EXPECT_EQ(c.copy.matches(r, c.w, nullptr, true, check_case::stream()), true);
  split.back() = 5;
  out.upload(split.data(), split.size(), check_case::stream());
  EXPECT_EQ(c.copy.matches(r, c.w, nullptr, true, check_case::stream()), false) << "a non-zero element after the count";
}

TEST(cuda_device_check, an_unstable_check_of_repeated_expected_values_is_left_to_the_host) {
  WINNOW_NEED_DEVICE();
  workload w;
  w.spec = "repeats (test)";
  w.data = {3, 0, 3, 5};
  const std::vector<std::uint32_t> expected = {3, 3, 5};
  device_buffer<std::uint32_t> out(3);
  out.upload(expected.data(), 3, check_case::stream());
  expected_copy copy(w, expected, nullptr, check_case::stream());
  const device_result r{.who = "test", .values = out.get(), .count = 3};
  EXPECT_EQ(copy.matches(r, w, nullptr, false, check_case::stream()), std::nullopt);
  EXPECT_EQ(copy.matches(r, w, nullptr, true, check_case::stream()), true);
}

TEST(cuda_case_input, is_uploaded_once_per_case_and_holds_the_input_as_generated) {
  WINNOW_NEED_DEVICE();
  const cudaStream_t s = check_case::stream();
  const workload w = generate("removal:100003:k=0.1");
  EXPECT_EQ(shared_input(nullptr, w, s), nullptr) << "no case to share it: each prepare uploads its own";
  device_copies copies;
  const case_input* in = shared_input(&copies, w, s);
  ASSERT_NE(in, nullptr);
  EXPECT_EQ(shared_input(&copies, w, s), in) << "the case's second record finds the first's copy";
  EXPECT_EQ(in->data.download(w.size(), s), w.data);
  EXPECT_EQ(in->removals.download(w.removals.size(), s), w.removals);
  std::vector<unsigned> bits(w.size() / 32 + 1, 0u); // the removed-index bitmap, made here by hand
  for (const std::uint32_t i : w.removals) bits[i / 32] |= 1u << (i % 32);
  EXPECT_EQ(in->removed_bits.download(bits.size(), s), bits) << "bit i for each removed index i, and no other";
  // A stream made on the device (payloads_are_indices) and one uploaded (not all of them index + 1).
  ASSERT_TRUE(payloads_are_indices(w));
  workload other = generate("uniform:100003:p=0.5");
  ASSERT_FALSE(payloads_are_indices(other));
  const case_input uploaded(other, s);
  EXPECT_EQ(uploaded.data.download(other.size(), s), other.data);
  workload bare; // a stream made by hand, with no removal list
  bare.spec = "no list (test)";
  bare.data = {1, 0, 3};
  EXPECT_EQ(case_input(bare, s).removed_bits.size(), 0u) << "no removal list, no bitmap";
}

TEST(cuda_device_check, every_cuda_algorithm_is_verified_on_the_device_and_its_record_says_so) {
  WINNOW_NEED_DEVICE();
  const registry& reg = all_backends();
  for (const char* spec : {"uniform:100003:p=0.3", "removal:100003:k=0.4"}) {
    prepared_case c = prepare_case(generate(spec));
    for (const auto& b : reg.backends()) {
      if (b.api != "cuda") continue;
      for (const auto& e : b.algorithms) {
        const record r = run_case(reg, e, {}, c, {.warmup = 0, .reps = 1, .check = check_place::device});
        if (r.skipped) continue;
        EXPECT_TRUE(r.verified) << e.info.full_name() << " " << spec << ": " << r.mismatch;
        EXPECT_EQ(r.checked_on, "device") << e.info.full_name() << " " << spec;
        EXPECT_EQ(r.kept, c.expected.size()) << e.info.full_name();
      }
    }
  }
}

} // namespace
} // namespace winnow::cuda
