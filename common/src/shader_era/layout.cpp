#include "winnow/shader_era/layout.hpp"

#include <string>

#include "winnow/error.hpp"

namespace winnow::shader_era {

std::uint32_t log2_exact(std::uint64_t v) {
  std::uint32_t l = 0;
  while ((std::uint64_t{1} << l) < v) ++l;
  return l;
}

stream_layout layout_for(std::uint64_t count, std::uint32_t min_width, std::uint32_t max_width) {
  std::uint64_t w = min_width;
  while (w * w < count && w < max_width) w *= 2;
  const std::uint64_t h = count == 0 ? 1 : (count + w - 1) / w;
  if (h > max_width)
    throw unavailable("winnow::shader_era: " + std::to_string(count) + " elements need more than " +
                      std::to_string(max_width) + " × " + std::to_string(max_width) +
                      " words (the layout limit: GL_MAX_TEXTURE_SIZE on GL)");
  stream_layout l;
  l.width = static_cast<std::uint32_t>(w);
  l.height = static_cast<std::uint32_t>(h);
  l.log2_width = log2_exact(w);
  l.count = count;
  return l;
}

} // namespace winnow::shader_era
