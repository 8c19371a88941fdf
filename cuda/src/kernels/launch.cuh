#pragma once
// Grid sizing for grid-stride kernels: enough blocks to fill every SM (a few waves), no more.
#include <algorithm>
#include <cstddef>

#include "../context.hpp"
#include "../tuning.hpp"

namespace winnow::cuda::detail {

inline unsigned stream_grid(std::size_t items, int block = tuning::stream_block) {
  const auto& p = context::get().props();
  const std::size_t resident = static_cast<std::size_t>(p.sms) * static_cast<std::size_t>(p.max_threads_per_sm / block);
  const std::size_t wanted = (items + static_cast<std::size_t>(block) - 1) / static_cast<std::size_t>(block);
  return static_cast<unsigned>(std::clamp<std::size_t>(wanted, 1, resident));
}

} // namespace winnow::cuda::detail
