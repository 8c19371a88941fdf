#pragma once
// The corpus's random numbers: MT19937 and integer-only derivations, so that the same seed gives
// the same bytes with every standard library (std:: distributions are implementation-defined).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace winnow::detail {

/// A hint that *p is about to be written (no effect on the result).
inline void prefetch_for_write([[maybe_unused]] const void* p) {
#if defined(__GNUC__) || defined(__clang__)
  __builtin_prefetch(p, 1);
#endif
}

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

/// Fisher-Yates with rng::below: the same permutation everywhere. The draws are made a batch ahead,
/// in the one-at-a-time loop's order, and the elements they will swap prefetched, so that the cache
/// misses of a large shuffle overlap (a 256M-element removal list: most of a case's generation).
template <class T> void shuffle(std::vector<T>& v, rng& r) {
  constexpr std::size_t ahead = 32;
  std::size_t j[ahead];
  for (std::size_t i = v.size(); i > 1;) {
    const std::size_t b = std::min(ahead, i - 1); // the steps i, i - 1, …, i - b + 1 (each > 1)
    for (std::size_t k = 0; k < b; ++k) {
      j[k] = r.below(static_cast<std::uint32_t>(i - k));
      prefetch_for_write(&v[j[k]]);
    }
    for (std::size_t k = 0; k < b; ++k) std::swap(v[i - k - 1], v[j[k]]);
    i -= b;
  }
}

} // namespace winnow::detail
