#pragma once
// What every check of a result on the device must tell apart (tests/cuda, tests/vulkan, tests/gl: each
// hands its check in as `check(values, stable)`, run on output values made here by hand): the
// expected stream passes, in order or not; one element dropped, one duplicated and one invented (a
// removed element's payload, a value the case never had) fail, stable or not; the stream reversed
// fails where order counts and passes where it does not.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <vector>

namespace winnow::testing {

template <class Check>
void expect_the_check_catches_wrong_elements(const std::vector<std::uint32_t>& e, std::uint32_t removed_payload,
                                             Check&& check) {
  ASSERT_GT(e.size(), 100u);
  for (const bool stable : {true, false}) {
    SCOPED_TRACE(stable ? "stable" : "unstable");
    EXPECT_EQ(check(e, stable), std::optional<bool>(true));
    const std::vector<std::uint32_t> dropped(e.begin(), e.end() - 1);
    EXPECT_EQ(check(dropped, stable), std::optional<bool>(false)) << "one element dropped";
    std::vector<std::uint32_t> duplicated = e;
    duplicated[50] = duplicated[51];
    EXPECT_EQ(check(duplicated, stable), std::optional<bool>(false)) << "one element in place of another";
    std::vector<std::uint32_t> invented = e;
    invented[50] = removed_payload;
    EXPECT_EQ(check(invented, stable), std::optional<bool>(false)) << "an element that was removed kept";
    invented[50] = 0xfffffff0u; // larger than any value of the case
    EXPECT_EQ(check(invented, stable), std::optional<bool>(false)) << "a value the case never had";
  }
  const std::vector<std::uint32_t> reversed(e.rbegin(), e.rend());
  EXPECT_EQ(check(reversed, true), std::optional<bool>(false)) << "out of order, where order counts";
  EXPECT_EQ(check(reversed, false), std::optional<bool>(true)) << "in any order, where it does not";
}

} // namespace winnow::testing
