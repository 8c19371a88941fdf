#include <gtest/gtest.h>

#include <algorithm>

#include "winnow/corpus.hpp"
#include "winnow/error.hpp"
#include "winnow/reference.hpp"
#include "winnow/removed_mask.hpp"
#include "winnow/verify.hpp"

namespace winnow {
namespace {

workload stream(std::vector<std::uint32_t> data) {
  workload w;
  w.data = std::move(data);
  for (std::uint32_t i = 0; i < w.data.size(); ++i)
    if (w.data[i] == 0) w.removals.push_back(i);
  return w;
}

TEST(verify, reference_keeps_valid_elements_in_order) {
  EXPECT_EQ(reference_compact(stream({5, 0, 7, 0, 9})), (std::vector<std::uint32_t>{5, 7, 9}));
  workload r;
  r.data = {1, 2, 3, 4, 5};
  r.removals = {3, 0};
  r.removal_list = true;
  EXPECT_EQ(reference_compact(r), (std::vector<std::uint32_t>{2, 3, 5}));
  EXPECT_EQ(r.marked(), (std::vector<std::uint32_t>{0, 2, 3, 0, 5}));
}

TEST(verify, reference_keeps_input_order_across_the_chunks_it_is_made_in) {
  // reference_compact works in chunks of 2^20 elements on all cores: sizes across several chunks,
  // with a removal list, gains appended, and a predicate stream, against a one-core copy.
  for (const char* spec :
       {"removal:3000017:k=0.37:seed=3", "removal:2100000:k=0.5:g=0.1:seed=4", "uniform:3000017:p=0.3",
        "runs:2100001:valid=3000:invalid=900000", "none:2100000", "all:1048577", "all:2097152"}) {
    const workload w = generate(parse_spec(spec));
    std::vector<bool> removed(w.size(), false);
    for (const std::uint32_t r : w.removals) removed[r] = true;
    std::vector<std::uint32_t> expected;
    for (std::size_t i = 0; i < w.size(); ++i)
      if (!removed[i]) expected.push_back(w.data[i]);
    EXPECT_EQ(reference_compact(w), expected) << spec;
  }
}

TEST(verify, exact_match_passes) {
  const workload w = stream({1, 0, 3});
  EXPECT_TRUE(verify(w, {1, 3}, {{1, 3}, std::nullopt}, true).ok);
  EXPECT_TRUE(verify(w, {1, 3}, {{3, 1}, std::nullopt}, false).ok);
}

TEST(verify, stable_mismatch_names_first_index_values_and_count) {
  const workload w = stream({1, 2, 3, 4});
  const verdict v = verify(w, {1, 2, 3, 4}, {{1, 9, 3, 8}, std::nullopt}, true);
  EXPECT_FALSE(v.ok);
  EXPECT_EQ(v.message, "output[1]: expected 2, got 9 (2 of 4 elements differ)");
  EXPECT_EQ(v.mismatches, 2u);
}

TEST(verify, order_matters_only_for_stable_algorithms) {
  const workload w = stream({1, 2, 3});
  EXPECT_EQ(verify(w, {1, 2, 3}, {{2, 1, 3}, std::nullopt}, true).message,
            "output[0]: expected 1, got 2 (2 of 3 elements differ)");
  EXPECT_TRUE(verify(w, {1, 2, 3}, {{2, 1, 3}, std::nullopt}, false).ok);
}

TEST(verify, count_is_checked_apart_from_contents) {
  const workload w = stream({1, 2, 3});
  EXPECT_EQ(verify(w, {1, 2, 3}, {{1, 2}, std::nullopt}, false).message, "count: expected 3, got 2");
  EXPECT_EQ(verify(w, {1, 2, 3}, {{1, 5, 3, 4}, std::nullopt}, true).message,
            "count: expected 3, got 4; first difference at output[1]: expected 2, got 5");
}

TEST(verify, multiset_mismatch_names_missing_and_unexpected_values) {
  const workload w = stream({1, 2, 3, 4});
  const verdict v = verify(w, {1, 2, 3, 4}, {{4, 0, 1, 1}, std::nullopt}, false);
  EXPECT_FALSE(v.ok);
  EXPECT_EQ(v.message,
            "multiset differs: 2 expected values missing (first: 2); 2 unexpected values (first: output[1] = 0)");
  EXPECT_EQ(v.mismatches, 2u);
}

TEST(verify, multiset_check_without_small_distinct_payloads_sorts_and_says_the_same) {
  // Payloads far above n take the sorting path; the report has the same form.
  const workload w = stream({1000001, 7, 3000003});
  const verdict v = verify(w, {1000001, 7, 3000003}, {{3000003, 0, 0}, std::nullopt}, false);
  EXPECT_EQ(v.message,
            "multiset differs: 2 expected values missing (first: 7); 2 unexpected values (first: output[1] = 0)");
  EXPECT_TRUE(verify(w, {1000001, 7, 3000003}, {{7, 3000003, 1000001}, std::nullopt}, false).ok);
}

TEST(verify, a_duplicated_value_is_unexpected) {
  const workload w = stream({1, 2, 3});
  EXPECT_EQ(verify(w, {1, 2, 3}, {{1, 2, 2}, std::nullopt}, false).message,
            "multiset differs: 1 expected values missing (first: 3); 1 unexpected values (first: output[2] = 2)");
}

TEST(verify, a_large_multiset_is_decided_on_all_cores_and_a_difference_still_named) {
  // Millions of values, as a GPU's unstable output: the same set in another order passes; a value
  // duplicated over another fails with the one-core check's message.
  std::vector<std::uint32_t> expected(3000017);
  for (std::size_t i = 0; i < expected.size(); ++i) expected[i] = static_cast<std::uint32_t>(2 * i + 1);
  std::vector<std::uint32_t> actual(expected.rbegin(), expected.rend());
  std::swap(actual[5], actual[2000000]);
  const workload w = stream(expected);
  EXPECT_TRUE(verify(w, expected, {actual, std::nullopt}, false).ok);
  actual[7] = actual[8];
  EXPECT_EQ(verify(w, expected, {actual, std::nullopt}, false).message,
            "multiset differs: 1 expected values missing (first: " + std::to_string(expected[expected.size() - 8]) +
                "); 1 unexpected values (first: output[8] = " + std::to_string(actual[8]) + ")");
  // Whatever the all-core check says, a difference is never let through: a value that lies between
  // the expected ones (even, here), one above them all, 0, one repeated.
  for (const std::uint32_t wrong : {std::uint32_t{2}, std::uint32_t{1u << 30}, std::uint32_t{0}, actual[100]}) {
    std::vector<std::uint32_t> one_wrong(expected.rbegin(), expected.rend());
    one_wrong[0] = wrong;
    EXPECT_FALSE(verify(w, expected, {one_wrong, std::nullopt}, false).ok) << wrong;
  }
  // Repeated expected values: only the same multiset passes.
  const workload r = stream({5, 5, 6});
  EXPECT_TRUE(verify(r, {5, 5, 6}, {{6, 5, 5}, std::nullopt}, false).ok);
  EXPECT_FALSE(verify(r, {5, 5, 6}, {{5, 6, 6}, std::nullopt}, false).ok);
}

TEST(verify, few_survivors_of_a_large_input_are_checked_against_the_input_size) {
  // 90 % removed: the survivors' payloads (index + 1) reach ten times their count, which the byte map
  // now covers because the input is that large. Whatever path decides, the verdicts are the same.
  const workload w = generate(parse_spec("removal:1000000:k=0.9:seed=2"));
  const std::vector<std::uint32_t> expected = reference_compact(w);
  ASSERT_LT(expected.size() * 8, w.size());
  std::vector<std::uint32_t> actual(expected.rbegin(), expected.rend());
  EXPECT_TRUE(verify(w, expected, {actual, std::nullopt}, false).ok);
  actual[3] = actual[4];
  EXPECT_EQ(verify(w, expected, {actual, std::nullopt}, false).message,
            "multiset differs: 1 expected values missing (first: " + std::to_string(expected[expected.size() - 4]) +
                "); 1 unexpected values (first: output[4] = " + std::to_string(actual[4]) + ")");
  // A removed element's payload in place of a survivor: in range of the map, never expected.
  std::vector<std::uint32_t> removed_one(expected.rbegin(), expected.rend());
  removed_one[0] = w.data[w.removals[0]];
  EXPECT_FALSE(verify(w, expected, {removed_one, std::nullopt}, false).ok);
}

/// An in-place unstable output as Redzone leaves it: the first m elements where they were, each
/// removed one among them replaced by a survivor from behind them.
std::vector<std::uint32_t> filled_from_behind(const workload& w, const std::vector<std::uint8_t>& removed,
                                              std::size_t m) {
  std::vector<std::uint32_t> out(w.data.begin(), w.data.begin() + static_cast<std::ptrdiff_t>(m));
  std::size_t from = m;
  for (std::size_t i = 0; i < m; ++i) {
    if (!removed[i]) continue;
    while (removed[from]) ++from;
    out[i] = w.data[from++];
  }
  return out;
}

TEST(verify, an_unstable_output_mostly_in_place_is_compared_on_what_moved_and_nothing_wrong_passes) {
  for (const char* spec : {"removal:100003:k=0.02:seed=3", "removal:100003:k=0.3:seed=4", "uniform:100003:p=0.9"}) {
    SCOPED_TRACE(spec);
    const workload w = generate(parse_spec(spec));
    const std::vector<std::uint8_t> removed = removed_mask(w);
    const std::vector<std::uint32_t> expected = reference_compact(w);
    const std::vector<std::uint32_t> in_place = filled_from_behind(w, removed, expected.size());
    std::vector<std::size_t> holes; // the indices that took a survivor from behind
    for (std::size_t i = 0; i < in_place.size(); ++i)
      if (removed[i]) holes.push_back(i);
    ASSERT_GE(holes.size(), 2u);
    const std::size_t kept_index = holes[0] == 0 ? 1 : 0; // an element left where it was
    ASSERT_FALSE(removed[kept_index]);
    // The mask given, or (a predicate case) none: the survivors are known either way.
    for (const std::vector<std::uint8_t>& mask : {removed, std::vector<std::uint8_t>{}}) {
      if (mask.empty() && w.removal_list) continue;
      EXPECT_TRUE(verify(w, expected, {in_place, std::nullopt}, false, mask).ok);
      auto wrong = in_place;
      wrong[holes[0]] = wrong[holes[1]]; // duplicated, and one dropped
      EXPECT_EQ(verify(w, expected, {wrong, std::nullopt}, false, mask).message,
                verify(w, expected, {wrong, std::nullopt}, false).message)
          << "a difference is named as the whole comparison names it";
      EXPECT_FALSE(verify(w, expected, {wrong, std::nullopt}, false, mask).ok);
      wrong = in_place;
      wrong[holes[0]] = w.data[holes[0]]; // a removed element left in its place
      EXPECT_FALSE(verify(w, expected, {wrong, std::nullopt}, false, mask).ok);
      wrong = in_place;
      wrong[kept_index] = in_place[holes[0]]; // one kept in place overwritten by one that moved
      EXPECT_FALSE(verify(w, expected, {wrong, std::nullopt}, false, mask).ok);
      wrong = in_place;
      wrong[holes[1]] = static_cast<std::uint32_t>(w.size() + 7); // invented
      EXPECT_FALSE(verify(w, expected, {wrong, std::nullopt}, false, mask).ok);
    }
  }
}

TEST(verify, out_of_place_input_may_only_gain_marks_at_removed_indices) {
  workload w;
  w.data = {1, 2, 3, 4};
  w.removals = {1};
  w.removal_list = true;
  EXPECT_TRUE(verify(w, {1, 3, 4}, {{1, 3, 4}, std::vector<std::uint32_t>{1, 0, 3, 4}}, true).ok);
  EXPECT_TRUE(verify(w, {1, 3, 4}, {{1, 3, 4}, std::vector<std::uint32_t>{1, 2, 3, 4}}, true).ok);
  EXPECT_EQ(verify(w, {1, 3, 4}, {{1, 3, 4}, std::vector<std::uint32_t>{1, 2, 0, 7}}, true).message,
            "input changed (out-of-place algorithm): input[2]: expected 3, got 0 (2 elements changed)");
}

TEST(verify, reads_the_removal_mask_it_is_given_and_makes_one_where_none_is) {
  workload w;
  w.data = {1, 2, 3, 4};
  w.removals = {1};
  w.removal_list = true;
  const compaction_output marked_at_2{{1, 3, 4}, std::vector<std::uint32_t>{1, 2, 0, 4}};
  EXPECT_FALSE(verify(w, {1, 3, 4}, marked_at_2, true).ok) << "made from R: index 2 is not removed";
  EXPECT_FALSE(verify(w, {1, 3, 4}, marked_at_2, true, removed_mask(w)).ok);
  // The mask given is the one read: one that (wrongly) lists index 2 lets its mark through. The
  // harness passes the case's own, made from the same R.
  const std::vector<std::uint8_t> lists_2{0, 1, 1, 0};
  EXPECT_TRUE(verify(w, {1, 3, 4}, marked_at_2, true, lists_2).ok);
  // Empty, or not of the stream's size: not given, made from R.
  EXPECT_FALSE(verify(w, {1, 3, 4}, marked_at_2, true, std::vector<std::uint8_t>{1, 1, 1}).ok);
}

TEST(verify, a_removal_mask_made_for_a_case_is_made_once) {
  const workload w = generate(parse_spec("removal:100003:k=0.3"));
  const std::vector<std::uint8_t> made = removed_mask(w);
  EXPECT_EQ(std::count(made.begin(), made.end(), 1), static_cast<std::ptrdiff_t>(w.removals.size()));
  for (const std::uint32_t r : {w.removals.front(), w.removals.back()}) EXPECT_EQ(made[r], 1);
  device_copies copies;
  const auto first = removed_mask(w, &copies), again = removed_mask(w, &copies);
  EXPECT_EQ(first.get(), again.get()) << "the case's records share one";
  EXPECT_EQ(*first, made);
  EXPECT_NE(removed_mask(w, nullptr).get(), removed_mask(w, nullptr).get()) << "no case to keep it: made anew";
  EXPECT_EQ(*removed_mask(w, nullptr), made);
  // The reference from the mask is the reference.
  EXPECT_EQ(reference_compact(w, made), reference_compact(w));
  EXPECT_THROW((void)reference_compact(w, std::vector<std::uint8_t>(3)), error);
}

} // namespace
} // namespace winnow
