// file: cases — PNG through libspng, PGM through a strict parser of our own. Images come from
// anywhere, so neither decoder trusts the file: the header's size is checked against the corpus
// limit before anything is allocated, a file shorter than its header promises is refused (never
// read as zeros or as uninitialised memory), 16-bit PGM samples are big-endian (the Netpbm format),
// and anything that is neither PNG nor PGM is refused by its first bytes. (stb_image, which decoded
// these before, overflowed on long PGM widths, read short PGMs from uninitialised memory and
// byte-swapped 16-bit PGM; see README, "Dependencies".) The web build (CMake's WINNOW_WEB, Emscripten)
// has no libspng: it compiles this with WINNOW_WITH_SPNG=0, and there a PNG is refused by name.
#include "image_file.hpp"

#ifndef WINNOW_WITH_SPNG
#define WINNOW_WITH_SPNG 1
#endif
#if WINNOW_WITH_SPNG
#include <spng.h>
#endif

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <memory>

#include "winnow/corpus.hpp"
#include "winnow/error.hpp"

namespace winnow::detail {
namespace {

[[noreturn]] void refuse(const std::string& path, const std::string& why) {
  throw usage_error("corpus: file:" + path + ": " + why);
}

constexpr std::array<std::uint8_t, 8> png_signature = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};

bool is_png(std::span<const std::uint8_t> bytes) {
  return bytes.size() >= png_signature.size() && std::equal(png_signature.begin(), png_signature.end(), bytes.begin());
}
bool is_pgm(std::span<const std::uint8_t> bytes) {
  return bytes.size() >= 2 && bytes[0] == 'P' && (bytes[1] == '5' || bytes[1] == '2');
}

std::string format_hint(std::span<const std::uint8_t> bytes) {
  if (bytes.size() >= 2 && bytes[0] == 'P' && bytes[1] >= '1' && bytes[1] <= '7')
    return "a Netpbm file of type P" + std::string(1, static_cast<char>(bytes[1])) + ", not a PGM (P5 or P2)";
  if (bytes.size() >= 2 && bytes[0] == 'B' && bytes[1] == 'M') return "a BMP";
  if (bytes.size() >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF) return "a JPEG";
  if (bytes.size() >= 3 && bytes[0] == 'G' && bytes[1] == 'I' && bytes[2] == 'F') return "a GIF";
  return "neither a PNG nor a PGM";
}

void check_size(const std::string& path, std::uint64_t width, std::uint64_t height) {
  if (width == 0 || height == 0)
    refuse(path, "the image is empty (" + std::to_string(width) + " × " + std::to_string(height) + ")");
  if (width > max_elements || height > max_elements || width * height > max_elements)
    refuse(path, std::to_string(width) + " × " + std::to_string(height) + " pixels is over the corpus limit of " +
                     std::to_string(max_elements) + " elements");
}

// --- PGM (Netpbm): "P5" or "P2", whitespace and #-comments, width, height, maxval (1…65535), one
// whitespace character, then the samples (P5: 1 byte each below 256, else 2 bytes big-endian).

struct pgm_reader {
  std::span<const std::uint8_t> b;
  std::size_t at = 2;
  const std::string& path;

  static bool space(std::uint8_t c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
  }

  void skip_space_and_comments() {
    while (at < b.size()) {
      if (space(b[at])) {
        ++at;
      } else if (b[at] == '#') {
        while (at < b.size() && b[at] != '\n' && b[at] != '\r') ++at;
      } else {
        break;
      }
    }
  }

  /// A decimal number ≤ limit, followed by whitespace (or, for P2's last sample, the end).
  std::uint64_t number(const char* what, std::uint64_t limit) {
    skip_space_and_comments();
    if (at >= b.size()) refuse(path, std::string("PGM header ends before its ") + what);
    if (b[at] < '0' || b[at] > '9') refuse(path, std::string("PGM ") + what + " is not a number");
    std::uint64_t v = 0;
    while (at < b.size() && b[at] >= '0' && b[at] <= '9') {
      v = v * 10 + (b[at] - '0');
      if (v > limit) refuse(path, std::string("PGM ") + what + " is over " + std::to_string(limit));
      ++at;
    }
    if (at < b.size() && !space(b[at]) && b[at] != '#') refuse(path, std::string("PGM ") + what + " is not a number");
    return v;
  }
};

image_header pgm_header(std::span<const std::uint8_t> bytes, const std::string& path, std::size_t* data_at = nullptr,
                        unsigned* maxval = nullptr) {
  pgm_reader r{bytes, 2, path};
  if (bytes.size() < 3 || !pgm_reader::space(bytes[2]))
    refuse(path, "not a PGM (no whitespace after its magic number)");
  const std::uint64_t width = r.number("width", max_elements), height = r.number("height", max_elements);
  check_size(path, width, height);
  const auto mv = static_cast<unsigned>(r.number("maxval", 65535));
  if (mv == 0) refuse(path, "PGM maxval is 0 (1…65535)");
  // Exactly one whitespace character after maxval (not a comment: the samples begin right after it).
  if (r.at >= bytes.size() || !pgm_reader::space(bytes[r.at])) refuse(path, "PGM header ends before its samples");
  ++r.at;
  if (data_at) *data_at = r.at;
  if (maxval) *maxval = mv;
  return {image_format::pgm, width, height};
}

gray_image decode_pgm(std::span<const std::uint8_t> bytes, const std::string& path) {
  std::size_t at = 0;
  unsigned maxval = 0;
  const image_header h = pgm_header(bytes, path, &at, &maxval);
  // Each side is within the corpus limit (check_size), so a 32-bit size_t holds it too (the web build).
  gray_image img{static_cast<std::size_t>(h.width), static_cast<std::size_t>(h.height), {}};
  const std::uint64_t n = h.width * h.height;
  auto scale = [&](std::uint64_t v) -> std::uint8_t {
    if (v > maxval) refuse(path, "PGM sample " + std::to_string(v) + " is over its maxval " + std::to_string(maxval));
    return static_cast<std::uint8_t>((v * 255 + maxval / 2) / maxval);
  };
  if (bytes[1] == '5') {
    const std::uint64_t per = maxval < 256 ? 1 : 2;
    const std::uint64_t have = bytes.size() - at;
    if (have < n * per)
      refuse(path, "truncated: its header says " + std::to_string(h.width) + " × " + std::to_string(h.height) + " (" +
                       std::to_string(n * per) + " bytes of samples), the file holds " + std::to_string(have));
    img.luminance.resize(n);
    const std::uint8_t* p = bytes.data() + at;
    for (std::uint64_t i = 0; i < n; ++i)
      img.luminance[i] = scale(per == 1 ? p[i] : (std::uint64_t{p[2 * i]} << 8) | p[2 * i + 1]);
  } else {
    // P2: as many samples as the header says; an ASCII sample takes at least 2 bytes, so a file too
    // short to hold them is refused before the image is allocated.
    if ((bytes.size() - at + 1) / 2 < n)
      refuse(path, "truncated: its header says " + std::to_string(n) + " samples, the file cannot hold them");
    pgm_reader r{bytes, at - 1, path};
    img.luminance.resize(n);
    for (std::uint64_t i = 0; i < n; ++i) img.luminance[i] = scale(r.number("sample", 65535));
  }
  return img;
}

// --- PNG (libspng): any bit depth, gray/RGB/palette, with or without alpha or tRNS.
#if WINNOW_WITH_SPNG

struct spng_free {
  void operator()(spng_ctx* c) const { spng_ctx_free(c); }
};
using spng_handle = std::unique_ptr<spng_ctx, spng_free>;

spng_handle png_context(std::span<const std::uint8_t> bytes, const std::string& path) {
  spng_handle ctx(spng_ctx_new(0));
  if (!ctx) throw error("corpus: libspng could not allocate a context");
  // Chunks past 64 MiB (and 256 MiB of them cached) are refused: no valid image of the corpus
  // limit needs larger ones, and a hostile file cannot make libspng hold more.
  spng_set_chunk_limits(ctx.get(), 64u << 20, 256u << 20);
  if (const int e = spng_set_png_buffer(ctx.get(), bytes.data(), bytes.size())) refuse(path, spng_strerror(e));
  return ctx;
}

/// The header's size, checked against the corpus limit and against the file: deflate expands at
/// most 1032:1, so a file too small to hold the image's rows is refused before anything is
/// allocated (a 69-byte PNG claiming 771 M pixels once made the decoder allocate 3 GB; found by
/// tests/fuzz/fuzz_image).
image_header png_header(spng_ctx* ctx, const std::string& path, std::uint64_t file_size) {
  spng_ihdr ihdr{};
  if (const int e = spng_get_ihdr(ctx, &ihdr)) refuse(path, std::string("PNG: ") + spng_strerror(e));
  check_size(path, ihdr.width, ihdr.height);
  const unsigned channels = ihdr.color_type == SPNG_COLOR_TYPE_TRUECOLOR         ? 3
                            : ihdr.color_type == SPNG_COLOR_TYPE_GRAYSCALE_ALPHA ? 2
                            : ihdr.color_type == SPNG_COLOR_TYPE_TRUECOLOR_ALPHA ? 4
                                                                                 : 1;
  const std::uint64_t row_bytes = 1 + (std::uint64_t{ihdr.width} * channels * ihdr.bit_depth + 7) / 8;
  const std::uint64_t raw = row_bytes * ihdr.height;
  if (raw / 1032 > file_size)
    refuse(path, "PNG: " + std::to_string(ihdr.width) + " × " + std::to_string(ihdr.height) + " pixels (" +
                     std::to_string(raw) + " bytes of rows) cannot be in a file of " + std::to_string(file_size) +
                     " bytes (deflate expands at most 1032:1)");
  return {image_format::png, ihdr.width, ihdr.height};
}

gray_image decode_png(std::span<const std::uint8_t> bytes, const std::string& path) {
  const spng_handle ctx = png_context(bytes, path);
  const image_header h = png_header(ctx.get(), path, bytes.size());
  std::size_t size = 0;
  if (const int e = spng_decoded_image_size(ctx.get(), SPNG_FMT_RGBA8, &size))
    refuse(path, std::string("PNG: ") + spng_strerror(e));
  std::vector<std::uint8_t> rgba(size);
  if (const int e = spng_decode_image(ctx.get(), rgba.data(), size, SPNG_FMT_RGBA8, SPNG_DECODE_TRNS))
    refuse(path, std::string("PNG: ") + spng_strerror(e));
  gray_image img{h.width, h.height, std::vector<std::uint8_t>(h.width * h.height)};
  for (std::size_t i = 0; i < img.luminance.size(); ++i) {
    const std::uint8_t* px = rgba.data() + 4 * i;
    const unsigned lum = (299u * px[0] + 587u * px[1] + 114u * px[2] + 500u) / 1000u; // Rec. 601; gray stays gray
    img.luminance[i] = static_cast<std::uint8_t>((lum * px[3] + 127u) / 255u);
  }
  return img;
}
#else
[[noreturn]] void no_png(const std::string& path) {
  refuse(path, "a PNG, which this build cannot read (built without libspng: the web build reads PGM)");
}
gray_image decode_png(std::span<const std::uint8_t>, const std::string& path) { no_png(path); }
#endif

/// At most `limit` bytes from the start of a regular file.
std::vector<std::uint8_t> read_file(const std::string& path, std::size_t limit) {
  check_regular_file(path);
  std::ifstream in(path, std::ios::binary);
  if (!in) refuse(path, "cannot open");
  std::vector<std::uint8_t> out;
  std::array<char, 1 << 16> chunk{};
  while (out.size() < limit) {
    in.read(chunk.data(), static_cast<std::streamsize>(std::min<std::size_t>(chunk.size(), limit - out.size())));
    if (in.gcount() <= 0) break; // a file over `limit` once looped here on the last chunk's count, to bad_alloc
    out.insert(out.end(), chunk.data(), chunk.data() + in.gcount());
  }
  if (in.bad()) refuse(path, "read error");
  return out;
}

} // namespace

void check_regular_file(const std::string& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) refuse(path, "no such file");
  if (!std::filesystem::is_regular_file(status)) refuse(path, "not a regular file (a PNG or PGM image is)");
}

image_header read_image_header(const std::string& path) {
  // PNG's IHDR is in its first 33 bytes; a PGM header is short unless comments make it long (a
  // header of over 1 MiB is refused).
  const auto head = read_file(path, 1 << 20);
  if (is_png(head)) {
#if WINNOW_WITH_SPNG
    const spng_handle ctx = png_context(head, path);
    std::error_code ec;
    const std::uint64_t size = std::filesystem::file_size(path, ec);
    return png_header(ctx.get(), path, ec ? head.size() : size);
#else
    no_png(path);
#endif
  }
  if (is_pgm(head)) return pgm_header(head, path);
  refuse(path, format_hint(head) + " (file: cases read PNG and PGM)");
}

gray_image decode_image(std::span<const std::uint8_t> bytes, const std::string& path) {
  if (is_png(bytes)) return decode_png(bytes, path);
  if (is_pgm(bytes)) return decode_pgm(bytes, path);
  refuse(path, format_hint(bytes) + " (file: cases read PNG and PGM)");
}

gray_image load_image(const std::string& path) {
  (void)read_image_header(path); // size and format checked before the whole file is read
  return decode_image(read_file(path, ~std::size_t{0}), path);
}

} // namespace winnow::detail
