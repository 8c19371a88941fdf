#pragma once
// The first index a predicate holds at, found on all cores: the host's checks of calibrate's results
// and of a case's removal list read up to 2^28 elements, on every record where each is a case of its own.
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <cstddef>

namespace winnow::cuda {

/// The least i < n with bad(i), or n where there is none. Slices of 2^20 in parallel; each stops at
/// its first hit or where an earlier hit has already been found.
template <class Bad> [[nodiscard]] std::size_t first_where(std::size_t n, const Bad& bad) {
  constexpr std::size_t slice = std::size_t{1} << 20;
  std::atomic<std::size_t> first{n};
  tbb::parallel_for(std::size_t{0}, (n + slice - 1) / slice, [&](std::size_t c) {
    for (std::size_t i = c * slice; i < std::min(n, (c + 1) * slice) && i < first.load(); ++i)
      if (bad(i)) {
        for (std::size_t seen = first.load(); i < seen && !first.compare_exchange_weak(seen, i);) {}
        return;
      }
  });
  return first.load();
}

} // namespace winnow::cuda
