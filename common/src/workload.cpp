#include "winnow/workload.hpp"

#include <algorithm>
#include <atomic>

#include <tbb/parallel_for.h>

#include "random.hpp"
#include "winnow/host_memory.hpp"
#include "winnow/removed_mask.hpp"

namespace winnow {

std::vector<std::uint32_t> workload::preserved() const {
  std::vector<std::uint8_t> removed = removed_mask(*this);
  std::vector<std::uint32_t> p;
  reserve_recycled(p, kept());
  for (std::size_t i = 0; i < data.size(); ++i)
    if (!removed[i]) p.push_back(static_cast<std::uint32_t>(i));
  recycle(removed);
  detail::rng g(1);
  detail::shuffle(p, g);
  return p;
}

std::vector<std::uint32_t> workload::marked() const {
  std::vector<std::uint32_t> out = data;
  for (const std::uint32_t r : removals) out[r] = 0;
  return out;
}

bool payloads_are_indices(const workload& w) {
  constexpr std::size_t chunk = std::size_t{1} << 20;
  std::atomic<bool> all{true};
  tbb::parallel_for(std::size_t{0}, (w.size() + chunk - 1) / chunk, [&](std::size_t c) {
    if (!all.load(std::memory_order_relaxed)) return; // another chunk has already said no
    const std::size_t end = std::min(w.size(), (c + 1) * chunk);
    for (std::size_t i = c * chunk; i < end; ++i)
      if (w.data[i] != static_cast<std::uint32_t>(i + 1)) {
        all.store(false, std::memory_order_relaxed);
        return;
      }
  });
  return all.load();
}

} // namespace winnow
