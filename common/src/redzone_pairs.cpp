#include "winnow/redzone_pairs.hpp"

#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include "winnow/error.hpp"
#include "winnow/removed_mask.hpp"

namespace winnow {

redzone_pairs count_redzone_pairs(const workload& w) {
  const std::size_t n = w.size(), k = w.removals.size();
  if (k == 0 || k > n) return {}; // k > n: not a removal list (indices repeat); its algorithms refuse it
  return count_redzone_pairs(w, removed_mask(w));
}

redzone_pairs count_redzone_pairs(const workload& w, std::span<const std::uint8_t> removed) {
  const std::size_t n = w.size(), k = w.removals.size();
  if (k == 0 || k > n) return {};
  if (removed.size() != n) throw error("count_redzone_pairs: the removal mask is not the stream's size");
  using range = tbb::blocked_range<std::size_t>;
  constexpr std::size_t grain = std::size_t{1} << 16;
  const std::size_t z = n - k;
  const std::vector<std::uint32_t>& r = w.removals; // zone item i is removed[z + i]
  return tbb::parallel_reduce(
      range(0, k, grain), redzone_pairs{},
      [&](const range& part, redzone_pairs sum) {
        for (std::size_t i = part.begin(); i < part.end(); ++i) {
          const bool inside = r[i] >= z, kept = removed[z + i] == 0;
          sum.zone += inside;
          sum.hole_kept += !inside && kept;
          sum.hole_removed += !inside && !kept;
          sum.zone_kept += inside && kept;
        }
        return sum;
      },
      [](redzone_pairs a, const redzone_pairs& b) {
        return redzone_pairs{a.zone + b.zone, a.hole_kept + b.hole_kept, a.hole_removed + b.hole_removed,
                             a.zone_kept + b.zone_kept};
      });
}

} // namespace winnow
