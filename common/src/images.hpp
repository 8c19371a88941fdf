#pragma once
// Procedural stand-ins for the images of Moreira et al. (a fingerprint, a hand, the Stanford bunny)
// and the loader for file: cases.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace winnow::detail {

/// Foreground mask (1 = valid) of `name` ∈ {finger, hand, bunny}, drawn into the unit square
/// stretched over width × height pixels, rows top to bottom.
[[nodiscard]] std::vector<std::uint8_t> render_image(std::string_view name, std::size_t width, std::size_t height);

struct gray_image {
  std::size_t width = 0, height = 0;
  std::vector<std::uint8_t> luminance; ///< alpha already applied (transparent = black)
};

/// Loads a PNG or PGM/PPM (gray, gray+alpha, RGB, RGBA). Throws usage_error naming the path.
[[nodiscard]] gray_image load_image(const std::string& path);

} // namespace winnow::detail
