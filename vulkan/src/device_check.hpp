#pragma once
// The check of a vk result where it lies (algorithm::matches_on_device on Vulkan): the verdict of
// winnow::verify on the host — a stable result element by element, an unstable one as a set, the
// count apart, an out-of-place input unchanged but for payload 0 at removed indices, no element torn
// apart — from a few flags read back instead of the output (shaders/check.comp). The case's expected
// stream goes to the device once (expected_copy) and serves every record of the case, beside its
// input as generated (case_input.hpp). The check does not know the algorithm under test: it reads
// only where the run says its result lies (device_result).
#include <cstdint>
#include <optional>
#include <vector>

#include "case_input.hpp"
#include "winnow/algorithm.hpp"
#include "winnow/vulkan/buffer.hpp"

namespace winnow::vk {

/// Where a run left its result on the device.
struct device_result {
  VkDeviceAddress values = 0; ///< the compacted stream: `count` elements of `words` words, the payload first
  std::uint64_t count = 0;
  std::uint32_t words = 1;
  VkDeviceAddress input_after = 0; ///< out of place: the input after the run (`words` per element); 0: none
  /// Where the elements lie in stacks of 8 rows (concat=stacks, shader_era::stack_position): the
  /// rows' width, log2. nullopt: element i at i.
  std::optional<std::uint32_t> stacks_log2_width = std::nullopt;
};

/// Whether `out` is what `expected` says (the header's comment); false where the count differs;
/// nullopt where the device cannot tell (an unstable result whose expected values repeat or are
/// far larger than the case) or has no room for the case's copies beside the run's buffers: the host
/// checks then. A lost device is thrown.
[[nodiscard]] std::optional<bool> matches_on_device(const expected_output& expected, bool stable,
                                                    const device_result& out);

/// One case's expected output on the device, made by its first record checked there and kept for the
/// others (winnow::device_copies); the bitmaps of an unstable check are made when first needed.
class expected_copy {
public:
  /// `input`: the case's input on the device, whose removal list the copy marks.
  expected_copy(const workload& w, const std::vector<std::uint32_t>& expected, const case_input& input);
  [[nodiscard]] std::optional<bool> matches(const device_result& out, const case_input& input, bool stable);

private:
  std::uint64_t m_n, m_count;
  std::uint32_t m_top = 0;        ///< the largest expected value
  bool m_removals;                ///< the case has removed indices (m_removed_bits)
  buffer m_expected;              ///< the expected stream
  buffer m_flags;                 ///< check.comp's flags (set_bits.comp's repeat flag first)
  buffer m_flags_read;            ///< mapped: the flags read back
  buffer m_removed_bits;          ///< the removal list's indices
  std::optional<bool> m_distinct; ///< set with the bitmaps: the expected values are distinct
  buffer m_expected_bits, m_seen_bits;
};

} // namespace winnow::vk
