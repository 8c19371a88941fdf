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

} // namespace
} // namespace winnow
