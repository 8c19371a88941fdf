// CUB baselines: DeviceSelect::If / Flagged (decoupled look-back, one pass) and DeviceScan. The
// temporary storage is sized here and allocated by the caller in prepare.
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/transform_iterator.h>

#include "../check.hpp"
#include "../dispatch/cub.hpp"

namespace winnow::cuda {
namespace {

struct nonzero {
  __host__ __device__ bool operator()(std::uint32_t x) const { return x != 0; }
};
struct nonzero_flag {
  __host__ __device__ std::uint32_t operator()(std::uint32_t x) const { return x != 0; }
};

auto as_flags(const std::uint32_t* d_a) { return thrust::make_transform_iterator(d_a, nonzero_flag{}); }

} // namespace

std::size_t cub_exclusive_sum_bytes(std::size_t n) {
  std::size_t bytes = 0;
  WINNOW_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, static_cast<const std::uint32_t*>(nullptr),
                                                  static_cast<std::uint32_t*>(nullptr), static_cast<std::int64_t>(n)));
  return bytes;
}

void cub_exclusive_sum(void* d_temp, std::size_t temp_bytes, const std::uint32_t* d_in, std::uint32_t* d_out,
                       std::size_t n, cudaStream_t stream) {
  WINNOW_CUDA_CHECK(
      cub::DeviceScan::ExclusiveSum(d_temp, temp_bytes, d_in, d_out, static_cast<std::int64_t>(n), stream));
}

std::size_t cub_flag_sum_bytes(std::size_t n) {
  std::size_t bytes = 0;
  WINNOW_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, as_flags(nullptr),
                                                  static_cast<std::uint32_t*>(nullptr), static_cast<std::int64_t>(n)));
  return bytes;
}

void cub_flag_sum(void* d_temp, std::size_t temp_bytes, const std::uint32_t* d_a, std::uint32_t* d_out, std::size_t n,
                  cudaStream_t stream) {
  WINNOW_CUDA_CHECK(
      cub::DeviceScan::ExclusiveSum(d_temp, temp_bytes, as_flags(d_a), d_out, static_cast<std::int64_t>(n), stream));
}

std::size_t cub_if_bytes(std::size_t n, bool in_place) {
  std::size_t bytes = 0;
  auto* a = static_cast<std::uint32_t*>(nullptr);
  auto* count = static_cast<unsigned long long*>(nullptr);
  const auto items = static_cast<std::int64_t>(n);
  if (in_place) WINNOW_CUDA_CHECK(cub::DeviceSelect::If(nullptr, bytes, a, count, items, nonzero{}));
  else WINNOW_CUDA_CHECK(cub::DeviceSelect::If(nullptr, bytes, a, a, count, items, nonzero{}));
  return bytes;
}

void cub_if(void* d_temp, std::size_t temp_bytes, std::uint32_t* d_a, std::uint32_t* d_out, std::size_t n,
            unsigned long long* d_count, cudaStream_t stream) {
  const auto items = static_cast<std::int64_t>(n);
  if (!d_out) WINNOW_CUDA_CHECK(cub::DeviceSelect::If(d_temp, temp_bytes, d_a, d_count, items, nonzero{}, stream));
  else WINNOW_CUDA_CHECK(cub::DeviceSelect::If(d_temp, temp_bytes, d_a, d_out, d_count, items, nonzero{}, stream));
}

std::size_t cub_flagged_bytes(std::size_t n, bool in_place) {
  std::size_t bytes = 0;
  auto* a = static_cast<std::uint32_t*>(nullptr);
  auto* flags = static_cast<const std::uint8_t*>(nullptr);
  auto* count = static_cast<unsigned long long*>(nullptr);
  const auto items = static_cast<std::int64_t>(n);
  if (in_place) WINNOW_CUDA_CHECK(cub::DeviceSelect::Flagged(nullptr, bytes, a, flags, count, items));
  else WINNOW_CUDA_CHECK(cub::DeviceSelect::Flagged(nullptr, bytes, a, flags, a, count, items));
  return bytes;
}

void cub_flagged(void* d_temp, std::size_t temp_bytes, std::uint32_t* d_a, const std::uint8_t* d_flags,
                 std::uint32_t* d_out, std::size_t n, unsigned long long* d_count, cudaStream_t stream) {
  const auto items = static_cast<std::int64_t>(n);
  if (!d_out) WINNOW_CUDA_CHECK(cub::DeviceSelect::Flagged(d_temp, temp_bytes, d_a, d_flags, d_count, items, stream));
  else WINNOW_CUDA_CHECK(cub::DeviceSelect::Flagged(d_temp, temp_bytes, d_a, d_flags, d_out, d_count, items, stream));
}

} // namespace winnow::cuda
