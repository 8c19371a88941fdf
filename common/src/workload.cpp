#include "winnow/workload.hpp"

#include "random.hpp"

namespace winnow {

std::vector<std::uint32_t> workload::preserved() const {
  std::vector<bool> removed(data.size(), false);
  for (const std::uint32_t r : removals) removed[r] = true;
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
