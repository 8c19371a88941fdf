#pragma once
/// Where the shader-era algorithms keep a stream: element i at (i mod W, i div W) of a W × H array,
/// W a power of two (a texture's width on GL, a row-major buffer on Vulkan). Padding past n holds
/// payload 0 (invalid). Every executor uses the same layout, so the passes, the block count and the
/// inter-block scan are the same on every API.
#include <cstdint>

namespace winnow::shader_era {

struct stream_layout {
  std::uint32_t width = 1, height = 1, log2_width = 0;
  std::uint64_t count = 0; ///< elements that are data; words past it are padding

  [[nodiscard]] std::uint64_t size() const { return std::uint64_t{width} * height; }
};

/// The near-square layout for `count` elements: W = the power of two ≥ √count, at least
/// `min_width`, at most `max_width` (then H grows). Throws winnow::unavailable naming the limit when
/// H would pass max_width as well. Example: (100003, 32, 32768) → 512 × 196.
[[nodiscard]] stream_layout layout_for(std::uint64_t count, std::uint32_t min_width, std::uint32_t max_width);

/// log2 of a power of two (the next power of two's for others).
[[nodiscard]] std::uint32_t log2_exact(std::uint64_t power_of_two);

} // namespace winnow::shader_era
