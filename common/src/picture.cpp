#include "winnow/picture.hpp"

#include <stb/stb_easy_font.h>
#include <stb/stb_image_write.h>

#include <algorithm>
#include <cmath>

#include "winnow/error.hpp"

namespace winnow {
namespace {

/// matplotlib's viridis (CC0) at t = 0, 1/16, …, 1; linear in between.
constexpr rgb viridis_stops[17] = {{68, 1, 84},    {72, 24, 106},  {71, 45, 123},  {66, 64, 134},  {59, 82, 139},
                                   {51, 99, 141},  {44, 114, 142}, {38, 130, 142}, {33, 145, 140}, {31, 160, 136},
                                   {40, 174, 128}, {63, 188, 115}, {94, 201, 98},  {132, 212, 75}, {173, 220, 48},
                                   {216, 226, 25}, {253, 231, 37}};

} // namespace

rgb viridis(double t) {
  const double x = std::clamp(std::isfinite(t) ? t : 0.0, 0.0, 1.0) * 16;
  const int i = std::min(15, static_cast<int>(x));
  const double f = x - i;
  auto mix = [&](std::uint8_t a, std::uint8_t b) { return static_cast<std::uint8_t>(std::lround(a + (b - a) * f)); };
  return {mix(viridis_stops[i].r, viridis_stops[i + 1].r), mix(viridis_stops[i].g, viridis_stops[i + 1].g),
          mix(viridis_stops[i].b, viridis_stops[i + 1].b)};
}

picture::picture(int width, int height, rgb fill_colour)
    : m_width(std::max(width, 0)), m_height(std::max(height, 0)),
      m_pixels(static_cast<std::size_t>(m_width) * static_cast<std::size_t>(m_height), fill_colour) {}

void picture::fill(int x, int y, int w, int h, rgb c) {
  const int x0 = std::max(x, 0), y0 = std::max(y, 0), x1 = std::min(x + w, m_width), y1 = std::min(y + h, m_height);
  for (int yy = y0; yy < y1; ++yy)
    for (int xx = x0; xx < x1; ++xx) m_pixels[index(xx, yy)] = c;
}

void picture::text(int x, int y, std::string_view s, rgb c, int scale) {
  // stb_easy_font draws characters as quads of whole font pixels: fill each, scaled.
  std::string line(s);
  std::vector<char> buffer(line.size() * 300 + 64);
  struct vertex {
    float x, y, z;
    unsigned char colour[4];
  };
  const int quads = stb_easy_font_print(0, 0, line.data(), nullptr, buffer.data(), static_cast<int>(buffer.size()));
  const auto* v = reinterpret_cast<const vertex*>(buffer.data());
  for (int q = 0; q < quads; ++q) {
    const vertex& a = v[4 * q];
    const vertex& b = v[4 * q + 2];
    fill(x + static_cast<int>(a.x) * scale, y + static_cast<int>(a.y) * scale, static_cast<int>(b.x - a.x) * scale,
         static_cast<int>(b.y - a.y) * scale, c);
  }
}

int picture::text_width(std::string_view s, int scale) {
  std::string line(s);
  return stb_easy_font_width(line.data()) * scale;
}

void picture::blit(const picture& p, int x, int y) {
  for (int yy = 0; yy < p.height(); ++yy)
    for (int xx = 0; xx < p.width(); ++xx) set(x + xx, y + yy, p.at(xx, yy));
}

picture picture::fit(const picture& p, int w, int h) {
  if (p.width() == 0 || p.height() == 0) return picture(1, 1);
  const double s = std::min(static_cast<double>(w) / p.width(), static_cast<double>(h) / p.height());
  const int ow = std::max(1, static_cast<int>(p.width() * s)), oh = std::max(1, static_cast<int>(p.height() * s));
  picture out(ow, oh);
  for (int y = 0; y < oh; ++y)
    for (int x = 0; x < ow; ++x)
      out.m_pixels[out.index(x, y)] =
          p.at(std::min(p.width() - 1, static_cast<int>(x / s)), std::min(p.height() - 1, static_cast<int>(y / s)));
  return out;
}

std::string picture::png() const {
  std::string out;
  auto sink = [](void* ctx, void* data, int size) {
    static_cast<std::string*>(ctx)->append(static_cast<const char*>(data), static_cast<std::size_t>(size));
  };
  if (!stbi_write_png_to_func(sink, &out, m_width, m_height, 3, m_pixels.data(), 3 * m_width))
    throw error("winnow::picture: PNG encoding failed (" + std::to_string(m_width) + " × " + std::to_string(m_height) +
                ")");
  return out;
}

} // namespace winnow
