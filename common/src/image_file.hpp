#pragma once
// The decoders of file: cases (image_file.cpp): PNG through libspng, PGM (P5, P2; 8 or 16 bits)
// through a strict parser of our own. Everything else is refused by its first bytes.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace winnow::detail {

struct gray_image {
  std::size_t width = 0, height = 0;
  std::vector<std::uint8_t> luminance; ///< alpha already applied (transparent = black)
};

enum class image_format { png, pgm };

struct image_header {
  image_format format = image_format::png;
  std::uint64_t width = 0, height = 0;
};

/// The path names a regular file (a FIFO would block the read forever; a directory is no image).
void check_regular_file(const std::string& path);
/// Format and size from the file's first bytes, checked against the corpus limit; nothing decoded.
[[nodiscard]] image_header read_image_header(const std::string& path);
/// Decodes a PNG or PGM held in memory (`path` only names it in errors).
[[nodiscard]] gray_image decode_image(std::span<const std::uint8_t> bytes, const std::string& path);
/// read_image_header, then the whole file decoded. Every refusal is a usage_error naming the path.
[[nodiscard]] gray_image load_image(const std::string& path);

} // namespace winnow::detail
