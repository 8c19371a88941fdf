// vk/horn — Horn's gather-search (GPU Gems 2, ch. 36; Moreira et al. 2009 §3.1) per block: an
// in-block inclusive scan of the invalid flags, then one search pass (ALGORITHMS.md §4).
// Example, B = 8: x = 5 0 0 8 0 6 7 0 → P = 0 1 2 2 3 3 3 4, v = 4 → 5 8 6 7.
#include "algorithms.hpp"
#include "compaction.hpp"

namespace winnow::vk {
namespace {

class horn final : public scan_then_search {
  // Binary lifting: ⌈log2(z_b + 1)⌉ ≤ log2 B steps.
  void prepare_in_block(const params&) override { prepare_search("horn_search", m_log2_block); }
  std::string name() const override { return "vk/horn"; }
};

} // namespace

algorithm_entry horn_entry() {
  return {{"vk", "horn", "Horn's gather-search on the in-block prefix sum of invalid flags; block concatenation", true,
           false, input_kind::predicate, {block_axis(), scan_axis(), concat_axis(true)}},
          [] { return std::make_unique<horn>(); }};
}

} // namespace winnow::vk
