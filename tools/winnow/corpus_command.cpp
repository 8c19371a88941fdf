#include <iostream>
#include <stb/stb_image_write.h>

#include "commands.hpp"
#include "memory.hpp"
#include "results_folder.hpp"
#include "winnow/corpus.hpp"
#include "winnow/error.hpp"
#include "winnow/record.hpp"

namespace winnow::cli {

int corpus_command(const std::string& spec_text, const std::string& out) {
  check_output_file("corpus --out", out, {".png"});
  const case_spec spec = parse_spec(spec_text);
  check_fits(spec);
  const workload w = generate(spec);
  const std::size_t n = w.size();
  std::size_t width = w.width;
  if (width == 0) {
    width = 1;
    while (width * width < n) width *= 2;
  }
  const std::size_t height = std::max<std::size_t>(1, (n + width - 1) / width);
  if (width > 65535 || height > 65535) throw usage_error("corpus: " + w.spec + " is too large to draw as one PNG");
  std::vector<std::uint8_t> pixels(width * height, 128); // padding past n: gray
  const auto marked = w.marked();
  for (std::size_t i = 0; i < n; ++i) pixels[i] = marked[i] ? 255 : 0;

  std::string png;
  auto sink = [](void* ctx, void* data, int size) {
    static_cast<std::string*>(ctx)->append(static_cast<const char*>(data), static_cast<std::size_t>(size));
  };
  if (!stbi_write_png_to_func(sink, &png, static_cast<int>(width), static_cast<int>(height), 1, pixels.data(),
                              static_cast<int>(width)))
    throw error("corpus: PNG encoding failed for " + w.spec);
  write_atomically(out, png);
  std::cout << "wrote " << out << ": " << width << "×" << height << ", " << w.spec << ", n = " << n << ", kept "
            << w.kept() << " (" << (n ? 100.0 * static_cast<double>(w.kept()) / static_cast<double>(n) : 0.0)
            << " %)\n";
  return 0;
}

} // namespace winnow::cli
