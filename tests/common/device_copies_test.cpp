// device_copies: one object per key, made once; get_if_room falls back (nullptr) only when the
// device has no room, keeps nothing then so the next record tries again, and lets any other error up.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "winnow/device_copies.hpp"
#include "winnow/error.hpp"

namespace {

using winnow::device_copies;

TEST(device_copies, makes_each_key_once) {
  device_copies copies;
  int made = 0;
  const auto make = [&] { return std::make_unique<int>(++made); };
  EXPECT_EQ(copies.get<int>("a", make), 1);
  EXPECT_EQ(copies.get<int>("a", make), 1);
  EXPECT_EQ(copies.get<int>("b", make), 2);
}

TEST(device_copies, no_room_is_nullptr_and_tried_again) {
  device_copies copies;
  int tries = 0;
  const auto out_of_room = [&]() -> std::unique_ptr<int> {
    ++tries;
    throw winnow::unavailable("out of device memory: asked for 8 GiB");
  };
  EXPECT_EQ(copies.get_if_room<int>("input", out_of_room), nullptr);
  EXPECT_EQ(copies.get_if_room<int>("input", out_of_room), nullptr);
  EXPECT_EQ(tries, 2); // nothing kept after the failure: the next record tries again
  const int* made = copies.get_if_room<int>("input", [] { return std::make_unique<int>(7); });
  ASSERT_NE(made, nullptr);
  EXPECT_EQ(*made, 7);
}

TEST(device_copies, other_errors_go_up) {
  device_copies copies;
  EXPECT_THROW((void)copies.get_if_room<int>(
                   "input", []() -> std::unique_ptr<int> { throw winnow::context_lost("device lost"); }),
               winnow::context_lost);
  EXPECT_THROW((void)copies.get_if_room<int>(
                   "input", []() -> std::unique_ptr<int> { throw winnow::error("removal index 9 ≥ n = 4"); }),
               winnow::error);
}

} // namespace
