#pragma once
// Elements of 32, 64 or 128 bits for vk/ballot and vk/lookback: word 0 is the 32-bit payload (0 =
// invalid), the other words a fixed function of it, so that a move which tears an element apart is
// caught when the result is read back.
#include <cstdint>
#include <string>
#include <vector>

#include "winnow/device_copies.hpp"
#include "winnow/vulkan/buffer.hpp"
#include "winnow/vulkan/sequence.hpp"
#include "winnow/workload.hpp"

namespace winnow::vk {

/// Word k of the element whose payload is x.
[[nodiscard]] std::uint32_t element_word(std::uint32_t x, std::uint32_t k);
/// The stream as elements of `words` words, padded with invalid elements to `elements`.
[[nodiscard]] std::vector<std::uint32_t> widen(const std::vector<std::uint32_t>& payloads, std::uint32_t words,
                                               std::uint64_t elements);
/// A buffer named `name` holding `w`'s stream as elements of `words` words, padded with invalid
/// elements to `elements`. Of one word an element, it is copied on the device from the case's shared
/// input (case_input.hpp) where `copies` has room for one: a GiB stream's widening and upload took
/// 1.6-1.9 s of each vk/lookback record's prepare on the H100, where the device copy takes milliseconds.
[[nodiscard]] buffer stream_buffer(const std::string& name, const workload& w, std::uint32_t words,
                                   std::uint64_t elements, device_copies* copies);
/// A buffer named `name` holding `w`'s removal list, copied on the device from the shared input the
/// same way where there is one.
[[nodiscard]] buffer removals_buffer(const std::string& name, const workload& w, device_copies* copies);

/// The payloads of `wide`, after checking every element's other words; `who` names the algorithm in
/// the error.
[[nodiscard]] std::vector<std::uint32_t> payloads_of(const std::vector<std::uint32_t>& wide, std::uint32_t words,
                                                     const std::string& who);
/// Word 0 of every element (an input read back: only payloads are compared with the case).
[[nodiscard]] std::vector<std::uint32_t> first_words(const std::vector<std::uint32_t>& wide, std::uint32_t words);

/// Records the mark phase of removal-list cases (shaders/mark_wide.comp): payload 0 into word 0 of
/// element R[i] of `data`, for the k indices in `removals`.
void record_mark(sequence& s, const buffer& removals, std::uint32_t k, const buffer& data, std::uint32_t words);

} // namespace winnow::vk
