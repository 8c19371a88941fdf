#pragma once
// The corpus's random numbers: MT19937 and integer-only derivations, so that the same seed gives
// the same bytes with every standard library (std:: distributions are implementation-defined).
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace winnow::detail {

class rng {
public:
  explicit rng(std::uint32_t seed) : m_engine(seed) {}
  std::uint32_t next() { return static_cast<std::uint32_t>(m_engine()); }
  /// Uniform in [0, bound), bound ≥ 1 (Lemire's multiply-and-reject, exact).
  std::uint32_t below(std::uint32_t bound) {
    std::uint64_t m = std::uint64_t{next()} * bound;
    auto low = static_cast<std::uint32_t>(m);
    if (low < bound) {
      const std::uint32_t threshold = static_cast<std::uint32_t>(-bound) % bound;
      while (low < threshold) {
        m = std::uint64_t{next()} * bound;
        low = static_cast<std::uint32_t>(m);
      }
    }
    return static_cast<std::uint32_t>(m >> 32);
  }
  /// True with probability p (p·2^32 rounded; p = 1 is always true).
  bool chance(std::uint64_t threshold) { return next() < threshold; }
  static std::uint64_t threshold_of(double p) { return static_cast<std::uint64_t>(std::llround(p * 4294967296.0)); }

private:
  std::mt19937 m_engine;
};

/// Fisher-Yates with rng::below: the same permutation everywhere.
template <class T>
void shuffle(std::vector<T>& v, rng& r) {
  for (std::size_t i = v.size(); i > 1; --i) {
    const std::size_t j = r.below(static_cast<std::uint32_t>(i));
    std::swap(v[i - 1], v[j]);
  }
}

} // namespace winnow::detail
