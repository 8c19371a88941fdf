#pragma once
// Procedural stand-ins for the images of Moreira et al. (a fingerprint, a hand, the Stanford bunny).
// The loader of file: cases is in image_file.hpp.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace winnow::detail {

/// Foreground mask (1 = valid) of `name` ∈ {finger, hand, bunny}, drawn into the unit square
/// stretched over width × height pixels, rows top to bottom.
[[nodiscard]] std::vector<std::uint8_t> render_image(std::string_view name, std::size_t width, std::size_t height);

} // namespace winnow::detail
