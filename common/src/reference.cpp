#include "winnow/reference.hpp"

#include <algorithm>

namespace winnow {

std::vector<std::uint32_t> reference_compact(const workload& w) {
  std::vector<std::uint32_t> out;
  out.reserve(w.kept());
  if (!w.removal_list) {
    std::copy_if(w.data.begin(), w.data.end(), std::back_inserter(out), [](std::uint32_t x) { return x != 0; });
    return out;
  }
  std::vector<bool> removed(w.size(), false);
  for (const std::uint32_t r : w.removals) removed[r] = true;
  for (std::size_t i = 0; i < w.size(); ++i)
    if (!removed[i]) out.push_back(w.data[i]);
  return out;
}

} // namespace winnow
