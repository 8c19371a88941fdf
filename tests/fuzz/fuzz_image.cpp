// libFuzzer target: the file: image decoders (PNG through libspng, PGM through our own parser) on
// arbitrary bytes. Either the bytes are refused with usage_error or the image has width × height
// luminance values.
#include <cstdint>
#include <cstdlib>
#include <span>

#include "image_file.hpp"
#include "winnow/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const auto img = winnow::detail::decode_image(std::span<const std::uint8_t>(data, size), "fuzz");
    if (img.luminance.size() != img.width * img.height) std::abort();
  } catch (const winnow::usage_error&) {}
  return 0;
}
