// Large copies through the pinned chunks (cuda/src/staging.hpp) give back what went in, at sizes
// below, at and past the threshold and across several chunks with an odd tail; a source may change
// as soon as its upload returns; a download sees the work queued before it. Then the calibrate
// step's host helpers: its test data made on all cores equals splitmix64 called in turn, and the
// parallel comparison names the first difference.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "need_device.hpp"

// Private headers of winnow::cuda (tests may look inside).
#include "../../cuda/src/buffer.hpp"
#include "../../cuda/src/context.hpp"
#include "../../cuda/src/primitives.hpp"
#include "../../cuda/src/staging.hpp"

namespace winnow::cuda {
namespace {

std::vector<std::uint32_t> pattern(std::size_t n, std::uint32_t salt) {
  std::vector<std::uint32_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::uint32_t>(i * 2654435761u) ^ salt;
  return v;
}

TEST(cuda_staging, round_trips_at_every_size_class) {
  WINNOW_NEED_DEVICE();
  const cudaStream_t s = context::get().stream();
  const std::size_t threshold = staged_copy_bytes / 4, chunk = (std::size_t{32} << 20) / 4;
  for (const std::size_t n : {std::size_t{1}, threshold - 1, threshold, 3 * chunk + 3, 2 * chunk}) {
    const auto want = pattern(n, static_cast<std::uint32_t>(n));
    device_buffer<std::uint32_t> d(n);
    d.upload(want.data(), n, s);
    EXPECT_EQ(d.download(n, s), want) << n << " elements";
  }
}

TEST(cuda_staging, a_source_may_change_once_its_upload_returns) {
  WINNOW_NEED_DEVICE();
  const cudaStream_t s = context::get().stream();
  const std::size_t n = (std::size_t{80} << 20) / 4 + 5; // three chunks, the last one partial
  auto host = pattern(n, 1);
  const auto first = host;
  device_buffer<std::uint32_t> a(n), b(n);
  a.upload(host.data(), n, s);
  host.assign(n, 7); // before the copy engine may have finished with a's last chunk
  b.upload(host.data(), n, s);
  host.assign(n, 9);
  EXPECT_EQ(a.download(n, s), first);
  EXPECT_EQ(b.download(n, s), std::vector<std::uint32_t>(n, 7));
}

TEST(cuda_staging, a_download_sees_the_work_queued_before_it) {
  WINNOW_NEED_DEVICE();
  const cudaStream_t s = context::get().stream();
  const std::size_t n = (std::size_t{40} << 20) / 4;
  const auto host = pattern(n, 3);
  device_buffer<std::uint32_t> d(n);
  d.upload(host.data(), n, s);
  ASSERT_EQ(cudaMemsetAsync(d.get() + n / 2, 0xff, (n - n / 2) * 4, s), cudaSuccess);
  auto want = host;
  std::fill(want.begin() + static_cast<std::ptrdiff_t>(n / 2), want.end(), 0xffffffffu);
  EXPECT_EQ(d.download(n, s), want);
}

TEST(cuda_calibrate_data, splitmix64_values_are_the_sequence_in_turn) {
  const std::size_t n = (std::size_t{3} << 20) + 5; // four slices of the parallel form, the last partial
  for (const std::uint32_t below : {0u, 50u}) {
    std::vector<std::uint32_t> want(n);
    std::uint64_t x = 565;
    for (auto& e : want) {
      const std::uint64_t z = splitmix64(x);
      e = static_cast<std::uint32_t>(below ? z % below : z);
    }
    EXPECT_EQ(splitmix64_values(n, 565, below), want) << "below " << below;
  }
}

TEST(cuda_calibrate_data, first_difference_names_the_first_index_that_differs) {
  const std::size_t n = (std::size_t{5} << 20) + 3;
  const auto want = pattern(n, 11);
  EXPECT_EQ(first_difference(want, want), n);
  for (const std::size_t at : {std::size_t{0}, std::size_t{1} << 20, (std::size_t{3} << 20) + 17, n - 1}) {
    auto got = want;
    got[at] ^= 1;
    got[n - 1] ^= 2; // a later difference too, in another slice: the first one is named
    EXPECT_EQ(first_difference(got, want), at);
  }
}

} // namespace
} // namespace winnow::cuda
