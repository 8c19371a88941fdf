#include "winnow/shader_era/sampling.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

#include "winnow/compat.hpp"

namespace winnow::shader_era {

sample_shape sample_shape_for(std::uint64_t n) {
  sample_shape s;
  s.n = n;
  s.span = sample_span;
  const std::uint64_t cover = (n + s.span - 1) / s.span; // windows that would read every element
  s.words = static_cast<std::uint32_t>(std::clamp<std::uint64_t>(cover, 1, sample_windows));
  s.stride = std::max<std::uint64_t>(s.span, n / s.words);
  s.regions = std::min(sample_regions, s.words);
  return s;
}

std::vector<std::uint32_t> sample_words(std::span<const std::uint32_t> data, const sample_shape& s) {
  std::vector<std::uint32_t> out(s.words);
  for (std::uint32_t i = 0; i < s.words; ++i) {
    const std::uint64_t first = i * s.stride;
    std::uint32_t valid = 0, changes = 0;
    bool previous = false;
    for (std::uint32_t k = 0; k < s.span && first + k < s.n; ++k) {
      const bool v = data[first + k] != 0;
      valid += v ? 1 : 0;
      if (k > 0 && v != previous) ++changes;
      previous = v;
    }
    out[i] = valid | (changes << 16);
  }
  return out;
}

std::vector<region_extent> region_extents(const sample_shape& s) {
  std::vector<region_extent> out(s.regions);
  for (std::uint32_t i = 0; i < s.words; ++i) {
    const std::uint64_t first = i * s.stride;
    const double elements = first >= s.n ? 0.0 : static_cast<double>(std::min<std::uint64_t>(s.span, s.n - first));
    region_extent& r = out[std::uint64_t{i} * s.regions / s.words];
    r.elements += elements;
    r.pairs += elements > 0 ? elements - 1 : 0;
  }
  return out;
}

std::vector<region_estimate> estimate(std::span<const std::uint32_t> words, const sample_shape& s) {
  std::vector<std::uint32_t> sums(s.regions, 0); // packed as the words: sampling.hpp's static_asserts
  for (std::uint32_t i = 0; i < s.words && i < words.size(); ++i)
    sums[std::uint64_t{i} * s.regions / s.words] += words[i];
  return estimate_from_sums(sums, s);
}

std::vector<region_estimate> estimate_from_sums(std::span<const std::uint32_t> sums, const sample_shape& s) {
  const std::vector<region_extent> extents = region_extents(s);
  double total = 0;
  for (const region_extent& e : extents) total += e.elements;
  std::vector<region_estimate> out;
  for (std::uint32_t r = 0; r < s.regions && r < sums.size(); ++r) {
    const region_extent& e = extents[r];
    if (e.elements == 0) continue;
    const double valid = sums[r] & 0xffffu, changes = sums[r] >> 16;
    out.push_back({e.elements / total, valid / e.elements, e.pairs > 0 ? changes / e.pairs : 0.0});
  }
  return out;
}

std::vector<std::uint32_t> choice_model_words(const std::vector<features>& coefficients, const sample_shape& s) {
  std::vector<std::uint32_t> out;
  const auto word = [&](double v) { out.push_back(winnow::bit_cast<std::uint32_t>(static_cast<float>(v))); };
  for (const features& c : coefficients)
    for (const double v : c) word(v);
  for (const region_extent& e : region_extents(s)) {
    word(e.elements);
    word(e.pairs);
  }
  return out;
}

features features_of(const std::vector<region_estimate>& regions) {
  if (regions.empty()) return {1, 0, 0, 0};
  features f{};
  for (const region_estimate& r : regions) {
    f[0] += r.weight;
    f[1] += r.weight * r.density;
    f[2] += r.weight * r.density * r.density;
    f[3] += r.weight * r.changes;
  }
  f[3] = std::sqrt(f[3]);
  return f;
}

std::vector<bool> ever_fastest(const std::vector<features>& c) {
  std::vector<bool> out(c.size(), true);
  if (std::any_of(c.begin(), c.end(), [](const features& k) { return k[2] != 0 || k[3] != 0; })) return out;
  // The first lowest line changes only where two lines cross: try p at 0, 1, every crossing inside,
  // and between each two of those.
  std::vector<double> at{0.0, 1.0};
  for (std::size_t j = 0; j < c.size(); ++j)
    for (std::size_t k = j + 1; k < c.size(); ++k)
      if (const double slopes = c[j][1] - c[k][1]; slopes != 0)
        if (const double p = (c[k][0] - c[j][0]) / slopes; p > 0 && p < 1) at.push_back(p);
  std::sort(at.begin(), at.end());
  at.erase(std::unique(at.begin(), at.end()), at.end());
  for (std::size_t i = 0, crossings = at.size(); i + 1 < crossings; ++i) at.push_back((at[i] + at[i + 1]) / 2);
  std::fill(out.begin(), out.end(), false);
  for (const double p : at) {
    std::size_t best = 0;
    for (std::size_t k = 1; k < c.size(); ++k)
      if (c[k][0] + c[k][1] * p < c[best][0] + c[best][1] * p) best = k;
    if (!c.empty()) out[best] = true;
  }
  return out;
}

} // namespace winnow::shader_era
