#include "winnow/workload.hpp"

#include <atomic>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "random.hpp"
#include "removed_mask.hpp"

namespace winnow {

std::vector<std::uint8_t> detail::removed_mask(const workload& w) {
  std::vector<std::uint8_t> removed(w.data.size(), 0);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, w.removals.size(), std::size_t{1} << 16),
                    [&](const tbb::blocked_range<std::size_t>& r) {
                      for (std::size_t i = r.begin(); i < r.end(); ++i)
                        std::atomic_ref<std::uint8_t>(removed[w.removals[i]]).store(1, std::memory_order_relaxed);
                    });
  return removed;
}

std::vector<std::uint32_t> workload::preserved() const {
  const std::vector<std::uint8_t> removed = detail::removed_mask(*this);
  std::vector<std::uint32_t> p;
  p.reserve(kept());
  for (std::size_t i = 0; i < data.size(); ++i)
    if (!removed[i]) p.push_back(static_cast<std::uint32_t>(i));
  detail::rng g(1);
  detail::shuffle(p, g);
  return p;
}

std::vector<std::uint32_t> workload::marked() const {
  std::vector<std::uint32_t> out = data;
  for (const std::uint32_t r : removals) out[r] = 0;
  return out;
}

} // namespace winnow
