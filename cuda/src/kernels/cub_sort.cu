// CUB's radix sort, the baseline of Billeter et al.'s §5.3 radix sort (Table 5): keys only, and keys
// with 32-bit values in separate arrays (CUB sorts no interleaved pairs). Out of place, all key bits.
#include <cub/device/device_radix_sort.cuh>

#include "../check.hpp"
#include "../dispatch/cub.hpp"

namespace winnow::cuda {

std::size_t cub_sort_keys_bytes(std::size_t n) {
  std::size_t bytes = 0;
  WINNOW_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, bytes, static_cast<const std::uint32_t*>(nullptr),
                                                   static_cast<std::uint32_t*>(nullptr), static_cast<std::int64_t>(n)));
  return bytes;
}

void cub_sort_keys(void* d_temp, std::size_t temp_bytes, const std::uint32_t* d_in, std::uint32_t* d_out, std::size_t n,
                   cudaStream_t stream) {
  WINNOW_CUDA_CHECK(
      cub::DeviceRadixSort::SortKeys(d_temp, temp_bytes, d_in, d_out, static_cast<std::int64_t>(n), 0, 32, stream));
}

std::size_t cub_sort_pairs_bytes(std::size_t n) {
  std::size_t bytes = 0;
  WINNOW_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(
      nullptr, bytes, static_cast<const std::uint32_t*>(nullptr), static_cast<std::uint32_t*>(nullptr),
      static_cast<const std::uint32_t*>(nullptr), static_cast<std::uint32_t*>(nullptr), static_cast<std::int64_t>(n)));
  return bytes;
}

void cub_sort_pairs(void* d_temp, std::size_t temp_bytes, const std::uint32_t* d_keys_in, std::uint32_t* d_keys_out,
                    const std::uint32_t* d_values_in, std::uint32_t* d_values_out, std::size_t n, cudaStream_t stream) {
  WINNOW_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(d_temp, temp_bytes, d_keys_in, d_keys_out, d_values_in,
                                                    d_values_out, static_cast<std::int64_t>(n), 0, 32, stream));
}

} // namespace winnow::cuda
