// Redzone's fill may write the holes in any order (Bontes & Gain 2024 pair Z[i] with R[i], and any
// bijection between holes and sources is as good): R ordered by the high bits of its indices makes
// the fill's scattered 4-byte writes land bucket by bucket (or, fully sorted, in address order),
// so that DRAM pages and L2 sectors fill before they are written back. The order is a radix sort
// of R over a range of bits: cub::DeviceRadixSort, 8 bits per pass.
#include <cub/device/device_radix_sort.cuh>

#include "../check.hpp"
#include "../dispatch/redzone.hpp"

namespace winnow::cuda {

std::size_t redzone_order_bytes(std::size_t k, int begin_bit, int end_bit) {
  std::size_t bytes = 0;
  WINNOW_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, bytes, static_cast<const std::uint32_t*>(nullptr),
                                                   static_cast<std::uint32_t*>(nullptr), static_cast<std::int64_t>(k),
                                                   begin_bit, end_bit));
  return bytes;
}

void redzone_order(void* d_temp, std::size_t temp_bytes, const std::uint32_t* d_r, std::uint32_t* d_out, std::size_t k,
                   int begin_bit, int end_bit, cudaStream_t stream) {
  WINNOW_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(d_temp, temp_bytes, d_r, d_out, static_cast<std::int64_t>(k),
                                                   begin_bit, end_bit, stream));
}

} // namespace winnow::cuda
