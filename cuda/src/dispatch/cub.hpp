#pragma once
// The dispatch layer of kernels/cub_select.cu and kernels/cub_sort.cu: CUB baselines (temporary storage sized here,
// allocated by the caller). Host-callable functions that size and launch the kernels (CUB's device
// → dispatch → agent); every pointer is a device pointer (d_ prefix), every launch goes to `stream`
// and is checked.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace winnow::cuda {

/// Temporary bytes DeviceScan::ExclusiveSum needs for n 32-bit values.
[[nodiscard]] std::size_t cub_exclusive_sum_bytes(std::size_t n);
void cub_exclusive_sum(void* d_temp, std::size_t temp_bytes, const std::uint32_t* d_in, std::uint32_t* d_out,
                       std::size_t n, cudaStream_t stream);
/// Exclusive sum of (a[i] != 0) without a flags array (for billeter_scan's `cub` scan).
[[nodiscard]] std::size_t cub_flag_sum_bytes(std::size_t n);
void cub_flag_sum(void* d_temp, std::size_t temp_bytes, const std::uint32_t* d_a, std::uint32_t* d_out, std::size_t n,
                  cudaStream_t stream);
/// DeviceSelect::If with `payload != 0`; d_out == nullptr selects in place.
[[nodiscard]] std::size_t cub_if_bytes(std::size_t n, bool in_place);
void cub_if(void* d_temp, std::size_t temp_bytes, std::uint32_t* d_a, std::uint32_t* d_out, std::size_t n,
            unsigned long long* d_count, cudaStream_t stream);
/// DeviceSelect::Flagged with a byte stencil; d_out == nullptr selects in place.
[[nodiscard]] std::size_t cub_flagged_bytes(std::size_t n, bool in_place);
void cub_flagged(void* d_temp, std::size_t temp_bytes, std::uint32_t* d_a, const std::uint8_t* d_flags,
                 std::uint32_t* d_out, std::size_t n, unsigned long long* d_count, cudaStream_t stream);

/// DeviceRadixSort over all 32 key bits, out of place: keys only, or keys with 32-bit values in
/// separate arrays (kernels/cub_sort.cu).
[[nodiscard]] std::size_t cub_sort_keys_bytes(std::size_t n);
void cub_sort_keys(void* d_temp, std::size_t temp_bytes, const std::uint32_t* d_in, std::uint32_t* d_out, std::size_t n,
                   cudaStream_t stream);
[[nodiscard]] std::size_t cub_sort_pairs_bytes(std::size_t n);
void cub_sort_pairs(void* d_temp, std::size_t temp_bytes, const std::uint32_t* d_keys_in, std::uint32_t* d_keys_out,
                    const std::uint32_t* d_values_in, std::uint32_t* d_values_out, std::size_t n, cudaStream_t stream);

} // namespace winnow::cuda
