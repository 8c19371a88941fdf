#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

#include "winnow/host_memory.hpp"

namespace winnow {
namespace {

constexpr std::size_t large = (huge_page_advice_bytes / sizeof(std::uint32_t)) * 2; // 128 MiB of 32-bit words

bool all_zero(const std::vector<std::uint32_t>& v, std::size_t from = 0) {
  return std::all_of(v.begin() + static_cast<std::ptrdiff_t>(from), v.end(), [](std::uint32_t x) { return x == 0; });
}

TEST(host_memory, zeroed_vector_holds_n_zeros_small_or_large) {
  for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{1000}, large}) {
    const auto v = zeroed_vector<std::uint32_t>(n);
    EXPECT_EQ(v.size(), n);
    EXPECT_TRUE(all_zero(v)) << n;
  }
}

TEST(host_memory, resize_zeroed_keeps_the_elements_and_zeroes_the_rest) {
  std::vector<std::uint32_t> v{7, 8, 9};
  resize_zeroed(v, large);
  ASSERT_EQ(v.size(), large);
  EXPECT_EQ(v[0], 7u);
  EXPECT_EQ(v[1], 8u);
  EXPECT_EQ(v[2], 9u);
  EXPECT_TRUE(all_zero(v, 3));
  resize_zeroed(v, 2); // shrinking is resize's
  EXPECT_EQ(v, (std::vector<std::uint32_t>{7, 8}));
}

/// The kB of transparent huge pages backing the mapping that holds p (/proc/self/smaps), or -1.
long anon_huge_kb(const void* p) {
  std::ifstream smaps("/proc/self/smaps");
  const auto at = reinterpret_cast<std::uintptr_t>(p);
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    std::uintptr_t lo = 0, hi = 0;
    char dash = 0;
    std::istringstream head(line);
    if (head >> std::hex >> lo >> dash >> hi && dash == '-' && line.find(':') > line.find(' ')) {
      inside = lo <= at && at < hi; // a mapping's first line: "lo-hi perms offset dev inode path"
      continue;
    }
    if (inside && line.starts_with("AnonHugePages:")) return std::stol(line.substr(14));
  }
  return -1;
}

TEST(host_memory, a_large_array_is_backed_by_huge_pages_where_linux_allows_them) {
  std::ifstream mode("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string modes;
  std::getline(mode, modes);
  if (modes.find("[madvise]") == std::string::npos && modes.find("[always]") == std::string::npos)
    GTEST_SKIP() << "transparent huge pages are off here ("
                 << (modes.empty() ? "no /sys/kernel/mm/transparent_hugepage" : modes)
                 << "): the advice has nothing to ask for";
  const auto v = zeroed_vector<std::uint32_t>(large);
  // Its middle: madvise splits the allocation's mapping at the first whole page, so the page that
  // holds the allocator's header and v.data() is a mapping of its own, never advised.
  const long kb = anon_huge_kb(v.data() + v.size() / 2);
  ASSERT_GE(kb, 0) << "no mapping in /proc/self/smaps holds the array";
  // In [madvise] mode only advised ranges get huge pages: without the advice this reads 0. Not every
  // 2 MiB of it need be huge (the range's unaligned ends, memory the kernel could not compact).
  EXPECT_GT(kb, 0) << "THP mode " << modes;
}

// The kept arrays are the process's: each test starts and ends with none.
class kept_arrays : public ::testing::Test {
protected:
  void SetUp() override { release_spares(); }
  void TearDown() override { release_spares(); }
};

TEST_F(kept_arrays, a_recycled_large_array_is_taken_again_zeroed_by_a_request_it_fits) {
  auto v = zeroed_vector<std::uint32_t>(large);
  EXPECT_EQ(v.capacity(), large + large / 64) << "a 64th more than asked";
  std::fill(v.begin(), v.end(), 7u);
  const std::uint32_t* storage = v.data();
  recycle(v);
  EXPECT_TRUE(v.empty());
  EXPECT_EQ(v.capacity(), 0u);
  EXPECT_EQ(spare_bytes(), (large + large / 64) * sizeof(std::uint32_t));
  // A request a little larger than the first, or smaller by up to a quarter of itself, takes it,
  // with zeros where the 7s were.
  auto w = zeroed_vector<std::uint32_t>(large + 1);
  EXPECT_EQ(w.data(), storage);
  EXPECT_TRUE(all_zero(w));
  recycle(w);
  const auto x = zeroed_vector<std::uint32_t>(large - large / 8);
  EXPECT_EQ(x.data(), storage);
  EXPECT_EQ(x.size(), large - large / 8);
  EXPECT_TRUE(all_zero(x));
  EXPECT_EQ(spare_bytes(), 0u);
}

TEST_F(kept_arrays, of_several_that_fit_the_smallest_is_taken) {
  auto big = zeroed_vector<std::uint32_t>(large + large / 8), fit = zeroed_vector<std::uint32_t>(large);
  const std::uint32_t* small_storage = fit.data();
  const std::size_t big_bytes = big.capacity() * sizeof(std::uint32_t);
  recycle(big);
  recycle(fit);
  EXPECT_EQ(zeroed_vector<std::uint32_t>(large).data(), small_storage);
  EXPECT_EQ(spare_bytes(), big_bytes);
}

TEST_F(kept_arrays, a_request_that_none_fits_is_new_storage_beside_them_while_memory_allows) {
  auto a = zeroed_vector<std::uint32_t>(large);
  auto b = zeroed_vector<std::uint8_t>(large * 4);
  const std::size_t kept_bytes = a.capacity() * sizeof(std::uint32_t) + b.capacity();
  recycle(a);
  recycle(b);
  ASSERT_EQ(spare_bytes(), kept_bytes) << "a machine with less than 2 GiB?";
  // Much smaller (the array would be more than a quarter unused), another element type, or larger:
  // each is fresh, and the kept ones stay for the requests they fit.
  const auto half = zeroed_vector<std::uint32_t>(large / 2);
  EXPECT_TRUE(all_zero(half));
  EXPECT_EQ(zeroed_vector<std::uint64_t>(large / 2).size(), large / 2); // a's bytes, other elements
  EXPECT_EQ(spare_bytes(), kept_bytes);
}

TEST_F(kept_arrays, a_request_larger_than_the_memory_left_releases_the_oldest_first) {
  auto a = zeroed_vector<std::uint32_t>(large);
  auto b = zeroed_vector<std::uint8_t>(large * 4);
  recycle(a);
  recycle(b);
  // More than the kernel has: every kept array goes, and the caller allocates (or fails) alone.
  EXPECT_EQ(detail::take_spare(typeid(std::uint16_t), available_host_memory()), nullptr);
  EXPECT_EQ(spare_bytes(), 0u);
}

TEST_F(kept_arrays, they_take_at_most_half_the_memory_the_oldest_released_first) {
  const std::uint64_t limit = spare_limit();
  if (limit == 0) GTEST_SKIP() << "the kernel does not say how much memory there is: nothing is kept";
  // Stand-ins that claim the bytes: the limit is half this machine's memory.
  const auto claim = [](std::size_t bytes) {
    detail::keep_spare(std::make_unique<detail::spare>(), typeid(std::int16_t), bytes);
  };
  const std::uint64_t fifth = limit / 5;
  for (std::uint64_t i = 0; i < 4; ++i) claim(fifth + i);
  EXPECT_EQ(spare_bytes(), 4 * fifth + 6) << "under the limit: all four";
  claim(fifth + 4); // over: the oldest goes, and only it (any other would leave another sum)
  EXPECT_EQ(spare_bytes(), 4 * fifth + 10);
  claim(limit + 1); // larger than the limit alone: never kept
  EXPECT_EQ(spare_bytes(), 4 * fifth + 10);
}

TEST_F(kept_arrays, one_that_no_request_takes_among_the_next_sixteen_is_released) {
  detail::keep_spare(std::make_unique<detail::spare>(), typeid(std::int16_t), huge_page_advice_bytes);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(detail::take_spare(typeid(std::int32_t), huge_page_advice_bytes), nullptr);
  EXPECT_EQ(spare_bytes(), huge_page_advice_bytes) << "sixteen requests of other arrays: still kept";
  EXPECT_EQ(detail::take_spare(typeid(std::int32_t), huge_page_advice_bytes), nullptr);
  EXPECT_EQ(spare_bytes(), 0u) << "the seventeenth: released";
}

TEST_F(kept_arrays, small_arrays_are_freed_not_kept) {
  auto v = zeroed_vector<std::uint32_t>(1000);
  recycle(v);
  EXPECT_EQ(v.capacity(), 0u);
  EXPECT_EQ(spare_bytes(), 0u);
  // A small request leaves the kept ones alone.
  auto large_one = zeroed_vector<std::uint32_t>(large);
  const std::size_t kept_bytes = large_one.capacity() * sizeof(std::uint32_t);
  recycle(large_one);
  EXPECT_EQ(zeroed_vector<std::uint32_t>(1000).size(), 1000u);
  EXPECT_EQ(spare_bytes(), kept_bytes);
}

TEST_F(kept_arrays, growing_an_array_that_holds_elements_keeps_them_in_new_storage) {
  auto kept_one = zeroed_vector<std::uint32_t>(large);
  const std::uint32_t* storage = kept_one.data();
  const std::size_t kept_bytes = kept_one.capacity() * sizeof(std::uint32_t);
  recycle(kept_one);
  std::vector<std::uint32_t> v{1, 2, 3};
  resize_zeroed(v, large); // v's elements cannot move into a kept array
  EXPECT_NE(v.data(), storage);
  EXPECT_EQ(v[2], 3u);
  EXPECT_TRUE(all_zero(v, 3));
  EXPECT_EQ(spare_bytes(), kept_bytes);
}

TEST_F(kept_arrays, a_scratch_vector_keeps_its_storage_when_it_goes) {
  const std::uint8_t* storage = nullptr;
  std::size_t kept_bytes = 0;
  {
    scratch_vector<std::uint8_t> s(large * 4);
    storage = s.v.data();
    kept_bytes = s.v.capacity();
  }
  EXPECT_EQ(spare_bytes(), kept_bytes);
  EXPECT_EQ(zeroed_vector<std::uint8_t>(large * 4).data(), storage);
}

} // namespace
} // namespace winnow
