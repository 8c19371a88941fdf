// The three procedural images. They stand in for the images of Moreira et al. 2009, which are not
// published: a fingerprint (high spatial frequency: thin ridges), a hand (low: one smooth silhouette)
// and a bunny (middle: a silhouette with a coarse pattern of spots). Only +, -, *, / and sqrt are
// used — IEEE 754 rounds them exactly — so every machine draws the same pixels; this file is built
// with -ffp-contract=off so no compiler fuses them.
#include "images.hpp"

#include <cmath>

namespace winnow::detail {
namespace {

struct point {
  double x, y;
};

bool in_ellipse(point p, point c, double rx, double ry) {
  const double dx = (p.x - c.x) / rx, dy = (p.y - c.y) / ry;
  return dx * dx + dy * dy <= 1.0;
}

/// Inside the capsule of radius r around segment a-b.
bool in_capsule(point p, point a, point b, double r) {
  const double abx = b.x - a.x, aby = b.y - a.y;
  double t = ((p.x - a.x) * abx + (p.y - a.y) * aby) / (abx * abx + aby * aby);
  t = t < 0 ? 0 : (t > 1 ? 1 : t);
  const double dx = p.x - (a.x + t * abx), dy = p.y - (a.y + t * aby);
  return dx * dx + dy * dy <= r * r;
}

/// Rotated ellipse; (c, s) is the rotation's cosine and sine.
bool in_rotated_ellipse(point p, point ctr, double rx, double ry, double c, double s) {
  const double dx = p.x - ctr.x, dy = p.y - ctr.y;
  return in_ellipse({dx * c + dy * s, -dx * s + dy * c}, {0, 0}, rx, ry);
}

bool finger(point p) {
  if (!in_ellipse(p, {0.5, 0.52}, 0.34, 0.45)) return false;
  // Ridges: bands of a warped distance to the core; the warp (a low-order polynomial) bends them
  // into a loop pattern like a fingerprint's. ~55 ridges across the print.
  const double dx = p.x - 0.5, dy = (p.y - 0.45) * 0.8;
  const double warp = 0.35 * dx * dy + 0.6 * dx * dx * dx - 0.25 * dy * dy;
  const double r = std::sqrt(dx * dx + dy * dy) + warp;
  const double bands = r * 110.0;
  return bands - std::floor(bands) < 0.5;
}

bool hand(point p) {
  if (in_ellipse(p, {0.5, 0.66}, 0.22, 0.22)) return true;        // palm
  if (in_capsule(p, {0.5, 0.85}, {0.5, 0.98}, 0.13)) return true; // wrist
  const double r = 0.045;
  if (in_capsule(p, {0.35, 0.55}, {0.30, 0.22}, r)) return true;       // index
  if (in_capsule(p, {0.45, 0.50}, {0.43, 0.12}, r)) return true;       // middle
  if (in_capsule(p, {0.55, 0.50}, {0.57, 0.15}, r)) return true;       // ring
  if (in_capsule(p, {0.64, 0.56}, {0.70, 0.30}, r * 0.9)) return true; // little
  return in_capsule(p, {0.33, 0.72}, {0.15, 0.55}, r * 1.1);           // thumb
}

bool bunny(point p) {
  const bool body = in_ellipse(p, {0.52, 0.68}, 0.30, 0.24) || in_ellipse(p, {0.30, 0.50}, 0.14, 0.13) ||
                    in_rotated_ellipse(p, {0.27, 0.25}, 0.05, 0.17, 0.966, 0.259) ||  // ear, 15°
                    in_rotated_ellipse(p, {0.36, 0.26}, 0.05, 0.17, 0.906, -0.423) || // ear, -25°
                    in_ellipse(p, {0.83, 0.62}, 0.06, 0.06);                          // tail
  if (!body) return false;
  // Spots on a 1/22 grid, each a disc of 0.3 cells: the middle spatial frequency.
  const double gx = p.x * 22.0, gy = p.y * 22.0;
  const double fx = gx - std::floor(gx) - 0.5, fy = gy - std::floor(gy) - 0.5;
  return fx * fx + fy * fy > 0.09;
}

} // namespace

std::vector<std::uint8_t> render_image(std::string_view name, std::size_t width, std::size_t height) {
  bool (*shape)(point) = name == "finger" ? finger : name == "hand" ? hand : bunny;
  std::vector<std::uint8_t> mask(width * height);
  for (std::size_t y = 0; y < height; ++y)
    for (std::size_t x = 0; x < width; ++x) {
      const point p{(static_cast<double>(x) + 0.5) / static_cast<double>(width),
                    (static_cast<double>(y) + 0.5) / static_cast<double>(height)};
      mask[y * width + x] = shape(p) ? 1 : 0;
    }
  return mask;
}

} // namespace winnow::detail
