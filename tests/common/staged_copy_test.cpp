// The schedule of the GPU backends' staged copies (winnow/staged_copy.hpp): which chunk each part of
// a copy goes through, and in which order the device and the host take their turns.
#include "winnow/staged_copy.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

namespace winnow {
namespace {

std::string part(const char* what, std::size_t at, std::size_t n, std::size_t i) {
  return std::string(what) + " " + std::to_string(at) + "+" + std::to_string(n) + "@" + std::to_string(i);
}

TEST(staged_copy, an_upload_fills_the_two_chunks_in_turn_and_ends_short) {
  std::vector<std::string> calls;
  upload_in_chunks(10, 4,
                   [&](std::size_t at, std::size_t n, std::size_t i) { calls.push_back(part("send", at, n, i)); });
  EXPECT_EQ(calls, (std::vector<std::string>{"send 0+4@0", "send 4+4@1", "send 8+2@0"}));
  calls.clear();
  upload_in_chunks(0, 4,
                   [&](std::size_t at, std::size_t n, std::size_t i) { calls.push_back(part("send", at, n, i)); });
  EXPECT_TRUE(calls.empty());
}

TEST(staged_copy, a_download_fetches_the_next_chunk_before_it_takes_this_one) {
  std::vector<std::string> calls;
  const auto fetch = [&](std::size_t at, std::size_t n, std::size_t i) { calls.push_back(part("fetch", at, n, i)); };
  const auto take = [&](std::size_t at, std::size_t n, std::size_t i) { calls.push_back(part("take", at, n, i)); };
  download_in_chunks(10, 4, fetch, take);
  EXPECT_EQ(calls, (std::vector<std::string>{"fetch 0+4@0", "fetch 4+4@1", "take 0+4@0", "fetch 8+2@0", "take 4+4@1",
                                             "take 8+2@0"}));
  calls.clear();
  download_in_chunks(8, 4, fetch, take); // a whole number of chunks: none fetched past the end
  EXPECT_EQ(calls, (std::vector<std::string>{"fetch 0+4@0", "fetch 4+4@1", "take 0+4@0", "take 4+4@1"}));
  calls.clear();
  download_in_chunks(0, 4, fetch, take);
  EXPECT_TRUE(calls.empty());
}

TEST(staged_copy, copy_on_all_cores_copies_every_byte) {
  std::vector<std::uint32_t> from(3'000'001), to(from.size());
  std::iota(from.begin(), from.end(), 7u);
  copy_on_all_cores(to.data(), from.data(), 4 * from.size());
  EXPECT_EQ(to, from);
}

} // namespace
} // namespace winnow
