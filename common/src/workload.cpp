#include "winnow/workload.hpp"

#include "random.hpp"
#include "removed_mask.hpp"

namespace winnow {

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
