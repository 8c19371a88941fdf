#pragma once
// The corpus grammar's numbers: exact parses of the whole text (no sign, no trailing bytes; reals
// finite), shared by the parser (corpus_spec.cpp) and the generators (corpus_generate.cpp), which
// read the canonical text the parser wrote.
#include <charconv>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "winnow/compat.hpp"
#include "winnow/corpus.hpp"

namespace winnow::detail {

inline std::optional<double> to_real(std::string_view text) {
  double v = 0;
  auto [end, ec] = winnow::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

inline std::optional<std::uint64_t> to_uint(std::string_view text) {
  std::uint64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return v;
}

/// A key of a parsed spec (its canonical text, so the parse cannot fail here).
inline std::uint64_t key_uint(const case_spec& s, const std::string& k) { return *to_uint(s.keys.at(k)); }
inline double key_real(const case_spec& s, const std::string& k) { return *to_real(s.keys.at(k)); }

/// Row width of an image family at n elements: the power of two nearest a square.
inline std::size_t image_width(std::uint64_t n) {
  std::size_t w = 1;
  while (w * w < n) w *= 2;
  return w;
}

} // namespace winnow::detail
