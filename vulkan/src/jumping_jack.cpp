// vk/jj — Jumping Jack (Moreira et al., GRAPP 2009; M09 §3.2) per block, as ALGORITHMS.md §5
// reconstructs it: an in-block scan P of the invalid flags, then one pass in which every hole of
// [0, v_b) follows MAS[p] = B − P[p] to a valid element of the tail. Not stable.
// Example, B = 8: x = a 0 0 b 0 c d 0 → P = 0 1 2 2 3 3 3 4, v = 4; hole 1 walks 1→7→4→5,
// hole 2 walks 2→6 → a c d b.
#include "algorithms.hpp"
#include "compaction.hpp"

namespace winnow::vk {
namespace {

class jumping_jack final : public scan_then_search {
  // Hops ≤ z_b ≤ B − 1, tight (§5).
  void prepare_in_block(const params&) override { prepare_search("jj_search", m_block - 1); }
  std::string name() const override { return "vk/jj"; }
};

} // namespace

algorithm_entry jumping_jack_entry() {
  return {{"vk", "jj", "Jumping Jack: holes follow the MAS pointers (B − P) into the block's tail; not stable", false, false,
           input_kind::predicate, {block_axis(), scan_axis(), concat_axis()}},
          [] { return std::make_unique<jumping_jack>(); }};
}

} // namespace winnow::vk
