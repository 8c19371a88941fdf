#include "layout.hpp"

#include <string>

#include "winnow/error.hpp"

namespace winnow::gl {

int log2_exact(std::uint64_t v) {
  int l = 0;
  while ((std::uint64_t{1} << l) < v) ++l;
  return l;
}

stream_layout layout_for(std::uint64_t count, int min_width, int max_width) {
  std::uint64_t w = static_cast<std::uint64_t>(min_width);
  while (w * w < count && w < static_cast<std::uint64_t>(max_width)) w *= 2;
  const std::uint64_t h = count == 0 ? 1 : (count + w - 1) / w;
  if (h > static_cast<std::uint64_t>(max_width))
    throw unavailable("winnow::gl: " + std::to_string(count) + " elements need a texture over the limit of " +
                      std::to_string(max_width) + " × " + std::to_string(max_width) + " texels (GL_MAX_TEXTURE_SIZE)");
  stream_layout l;
  l.width = static_cast<int>(w);
  l.height = static_cast<int>(h);
  l.log2_width = log2_exact(w);
  l.count = count;
  return l;
}

} // namespace winnow::gl
