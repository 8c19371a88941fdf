#pragma once
#include <cstdint>
#include <vector>

#include "winnow/registry.hpp"
#include "winnow/vulkan/buffer.hpp"
#include "winnow/vulkan/sequence.hpp"

namespace winnow::vk {
/// Records copy.comp's pass into `s`: `words` 32-bit words from `from` to `to`, `width` words (1, 2 or
/// 4) an invocation, `local` invocations a workgroup. The calibration's copies, and the heat's.
void record_copy_pass(sequence& s, const buffer& from, const buffer& to, std::uint64_t words, std::uint32_t width,
                      std::uint32_t local);
/// Dispatch cost and copy-pass bandwidth of the device (`winnow calibrate`).
[[nodiscard]] std::vector<calibration> calibrate();
/// The same constants for the fragment path (vkfrag): a fragment pass's cost and copy bandwidth.
[[nodiscard]] std::vector<calibration> fragment_calibrate();
} // namespace winnow::vk
