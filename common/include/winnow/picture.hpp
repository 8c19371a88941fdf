#pragma once
/// An RGB image to draw the shader-era passes in (`winnow trace`, the viewer): pixels, rectangles,
/// text (stb_easy_font's bitmap font, scaled), the viridis colormap, PNG encoding (stb_image_write).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace winnow {

struct rgb {
  std::uint8_t r = 0, g = 0, b = 0;
  friend bool operator==(const rgb&, const rgb&) = default;
};
static_assert(sizeof(rgb) == 3, "pictures are encoded as packed RGB bytes");

/// Viridis (perceptually uniform, readable in grey and by most colour-blind readers), t in [0, 1].
[[nodiscard]] rgb viridis(double t);

class picture {
public:
  picture() = default;
  picture(int width, int height, rgb fill = {});
  [[nodiscard]] int width() const { return m_width; }
  [[nodiscard]] int height() const { return m_height; }
  [[nodiscard]] rgb at(int x, int y) const { return m_pixels[index(x, y)]; }
  void set(int x, int y, rgb c) {
    if (x >= 0 && y >= 0 && x < m_width && y < m_height) m_pixels[index(x, y)] = c;
  }
  /// Clipped to the picture.
  void fill(int x, int y, int w, int h, rgb c);
  /// `text` with its top-left corner at (x, y), each font pixel `scale` × `scale`.
  void text(int x, int y, std::string_view text, rgb c, int scale = 2);
  /// Width and height in pixels of `text` at `scale`.
  [[nodiscard]] static int text_width(std::string_view text, int scale = 2);
  [[nodiscard]] static int text_height(int scale = 2) { return 9 * scale; }
  /// Copies `p` with its top-left corner at (x, y), clipped.
  void blit(const picture& p, int x, int y);
  /// `p` shrunk (or grown) to fit `w` × `h`, nearest neighbour, aspect kept.
  [[nodiscard]] static picture fit(const picture& p, int w, int h);
  /// The PNG file's bytes.
  [[nodiscard]] std::string png() const;
  /// RGB bytes, row by row from the top.
  [[nodiscard]] const std::vector<rgb>& pixels() const { return m_pixels; }

private:
  [[nodiscard]] std::size_t index(int x, int y) const {
    return static_cast<std::size_t>(y) * static_cast<std::size_t>(m_width) + static_cast<std::size_t>(x);
  }
  int m_width = 0, m_height = 0;
  std::vector<rgb> m_pixels;
};

} // namespace winnow
