#include "winnow/reference.hpp"

#include <algorithm>
#include <numeric>

#include <tbb/parallel_for.h>

#include "removed_mask.hpp"

namespace winnow {

std::vector<std::uint32_t> reference_compact(const workload& w) {
  // On all cores, in chunks: each chunk's survivors counted, the counts summed into where each chunk's
  // survivors start, then every chunk copied to its place in input order. One core took seconds for a
  // 512M-element case, once per case of a bench.
  const std::vector<std::uint8_t> removed = w.removal_list ? detail::removed_mask(w) : std::vector<std::uint8_t>{};
  const auto kept = [&](std::size_t i) { return w.removal_list ? removed[i] == 0 : w.data[i] != 0; };
  constexpr std::size_t chunk = std::size_t{1} << 20;
  const std::size_t chunks = (w.size() + chunk - 1) / chunk;
  const auto end_of = [&](std::size_t c) { return std::min(w.size(), (c + 1) * chunk); };
  std::vector<std::size_t> start(chunks + 1, 0); // start[c + 1]: chunk c's count, then where chunk c + 1 starts
  tbb::parallel_for(std::size_t{0}, chunks, [&](std::size_t c) {
    std::size_t count = 0;
    for (std::size_t i = c * chunk; i < end_of(c); ++i) count += kept(i);
    start[c + 1] = count;
  });
  std::partial_sum(start.begin(), start.end(), start.begin());
  std::vector<std::uint32_t> out(start.back());
  tbb::parallel_for(std::size_t{0}, chunks, [&](std::size_t c) {
    std::size_t o = start[c];
    for (std::size_t i = c * chunk; i < end_of(c); ++i)
      if (kept(i)) out[o++] = w.data[i];
  });
  return out;
}

} // namespace winnow
