#include "table.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace winnow::cli {
namespace {

// Display width: count code points, not bytes (µ, ≥ and — are multi-byte).
std::size_t width(const std::string& s) {
  return static_cast<std::size_t>(
      std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

} // namespace

std::string table::str() const {
  std::vector<std::size_t> w;
  for (const auto& row : m_rows) {
    if (w.size() < row.size()) w.resize(row.size(), 0);
    for (std::size_t i = 0; i < row.size(); ++i) w[i] = std::max(w[i], width(row[i]));
  }
  std::string out;
  for (const auto& row : m_rows) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) line += std::string(w[i] - width(row[i]) + 2, ' ');
    }
    out += line + "\n";
  }
  return out;
}

std::string format_ns(double ns) {
  char buf[32];
  // Past a million seconds (or not finite): a number that stays short and keeps its unit.
  if (!(std::abs(ns) < 1e15)) std::snprintf(buf, sizeof buf, "%.3g s", ns / 1e9);
  else if (ns < 1e3) std::snprintf(buf, sizeof buf, "%.0f ns", ns);
  else if (ns < 1e6) std::snprintf(buf, sizeof buf, "%.2f µs", ns / 1e3);
  else if (ns < 1e9) std::snprintf(buf, sizeof buf, "%.3f ms", ns / 1e6);
  else std::snprintf(buf, sizeof buf, "%.3f s", ns / 1e9);
  return buf;
}

std::string format_bandwidth(double bytes, double ns) {
  if (bytes <= 0 || ns <= 0) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GB/s", bytes / ns);
  return buf;
}

std::string format_clock(double seconds) {
  const long long s = std::llround(seconds);
  char text[32];
  if (s >= 3600) std::snprintf(text, sizeof text, "%lld:%02lld:%02lld", s / 3600, s / 60 % 60, s % 60);
  else std::snprintf(text, sizeof text, "%lld:%02lld", s / 60, s % 60);
  return text;
}

std::string format_percent(double fraction) {
  char text[32];
  const double pct = 100 * fraction;
  std::snprintf(text, sizeof text, pct >= 10 ? "%.0f %%" : pct >= 1 ? "%.1f %%" : "%.2f %%", pct);
  return text;
}

} // namespace winnow::cli
