#include "winnow/reference.hpp"

#include <algorithm>
#include <numeric>

#include <tbb/parallel_for.h>

#include "winnow/error.hpp"
#include "winnow/host_memory.hpp"
#include "winnow/removed_mask.hpp"

namespace winnow {

namespace {

/// The elements i of w.data for which kept(i) holds, in input order, on all cores in chunks: each
/// chunk's survivors counted, the counts summed into where each chunk's survivors start, then every
/// chunk copied to its place. One core took seconds for a 512M-element case, once per case of a bench.
template <class Kept> std::vector<std::uint32_t> compact_in_chunks(const workload& w, const Kept& kept) {
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
  std::vector<std::uint32_t> out = zeroed_vector<std::uint32_t>(start.back());
  tbb::parallel_for(std::size_t{0}, chunks, [&](std::size_t c) {
    std::size_t o = start[c];
    for (std::size_t i = c * chunk; i < end_of(c); ++i)
      if (kept(i)) out[o++] = w.data[i];
  });
  return out;
}

} // namespace

std::vector<std::uint32_t> reference_compact(const workload& w) {
  if (!w.removal_list) return reference_compact(w, {});
  return reference_compact(w, removed_mask(w));
}

std::vector<std::uint32_t> reference_compact(const workload& w, std::span<const std::uint8_t> removed) {
  if (!w.removal_list) return compact_in_chunks(w, [&](std::size_t i) { return w.data[i] != 0; });
  if (removed.size() != w.size()) throw error("reference_compact: the removal mask is not the stream's size");
  return compact_in_chunks(w, [&](std::size_t i) { return removed[i] == 0; });
}

} // namespace winnow
