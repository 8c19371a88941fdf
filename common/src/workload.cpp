#include "winnow/workload.hpp"

namespace winnow {

std::vector<std::uint32_t> workload::marked() const {
  std::vector<std::uint32_t> out = data;
  for (const std::uint32_t r : removals) out[r] = 0;
  return out;
}

} // namespace winnow
