#include "winnow/removed_mask.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "winnow/compat.hpp"
#include "winnow/host_memory.hpp"

namespace winnow {

std::vector<std::uint8_t> removed_mask(const workload& w) {
  std::vector<std::uint8_t> removed = zeroed_vector<std::uint8_t>(w.data.size());
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, w.removals.size(), std::size_t{1} << 16),
                    [&](const tbb::blocked_range<std::size_t>& r) {
                      for (std::size_t i = r.begin(); i < r.end(); ++i)
                        if (w.removals[i] <
                            removed.size()) // past the stream: not a removal list, which its users refuse
                          atomic_ref<std::uint8_t>(removed[w.removals[i]]).store(1, std::memory_order_relaxed);
                    });
  return removed;
}

std::shared_ptr<const std::vector<std::uint8_t>> removed_mask(const workload& w, device_copies* copies) {
  using mask = std::vector<std::uint8_t>;
  if (!copies) return std::make_shared<const mask>(removed_mask(w));
  // Its storage is kept for the next case's mask when the case goes (host_memory.hpp).
  return copies->share<mask>("host removed mask", [&] {
    return std::shared_ptr<mask>(new mask(removed_mask(w)), [](mask* m) {
      recycle(*m);
      delete m; // NOLINT(cppcoreguidelines-owning-memory): the deleter of the pointer made above
    });
  });
}

} // namespace winnow
