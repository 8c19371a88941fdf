#pragma once
// The dispatch layer of kernels/mark.cu: the marking phase and small maps shared by many
// algorithms. Host-callable functions that size and launch the kernels (CUB's device → dispatch →
// agent); every pointer is a device pointer (d_ prefix), every launch goes to `stream` and is
// checked.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace winnow::cuda {

/// Writes payload 0 into word 0 of element d_r[i] (elements of `words` 32-bit words), i < k.
void launch_mark(std::uint32_t* d_a, unsigned words, const std::uint32_t* d_r, std::size_t k, cudaStream_t stream);
/// Writes flag 0 at every index of R.
void launch_mark_flags(std::uint8_t* d_flags, const std::uint32_t* d_r, std::size_t k, cudaStream_t stream);
/// flags[i] = a[i] != 0.
void launch_flags(std::uint8_t* d_flags, const std::uint32_t* d_a, std::size_t n, cudaStream_t stream);
/// a[i] = i + 1: a stream whose payloads are their indices (payloads_are_indices), made in place.
void launch_index_payloads(std::uint32_t* d_a, std::size_t n, cudaStream_t stream);
/// a[i] = i + 1 where a hash of i falls below `keep` (of 2^32), else 0: a stream about keep / 2^32
/// valid, the invalid ones scattered, made on the device (no upload; a probe's input, not a case).
void launch_hashed_payloads(std::uint32_t* d_a, std::size_t n, std::uint32_t keep, cudaStream_t stream);

/// Widens 32-bit payloads into elements of `words` words: word 0 is the payload, word w > 0 holds
/// widen_word(payload, w), so a result can be checked for elements torn apart.
void launch_widen(std::uint32_t* d_wide, unsigned words, const std::uint32_t* d_payload, std::size_t n,
                  cudaStream_t stream);
/// The filler of word w of a widened element (host and device agree on it).
[[nodiscard]] constexpr std::uint32_t widen_word(std::uint32_t payload, unsigned w) {
  return payload == 0 ? 0u : (payload * 0x9E3779B1u) ^ (0x01000193u * w);
}

} // namespace winnow::cuda
