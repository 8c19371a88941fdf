#pragma once
// Where elements live: element i of a stream sits at texel (i mod W, i div W) of a W × H texture,
// W a power of two (DESIGN.md). Padding past n is invalid (payload 0).
#include <cstddef>
#include <cstdint>

namespace winnow::gl {

struct stream_layout {
  int width = 1, height = 1, log2_width = 0;
  std::uint64_t count = 0; ///< elements that are data; texels past it are padding

  [[nodiscard]] std::uint64_t texels() const { return std::uint64_t(width) * std::uint64_t(height); }
};

/// The near-square layout for `count` elements: W = the power of two ≥ √count, at least
/// `min_width`, at most `max_width` (then H grows). Throws unavailable when H would pass max_width.
[[nodiscard]] stream_layout layout_for(std::uint64_t count, int min_width, int max_width);

[[nodiscard]] int log2_exact(std::uint64_t power_of_two);

} // namespace winnow::gl
