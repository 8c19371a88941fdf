// gl/jj — Jumping Jack (Moreira et al., GRAPP 2009; M09 §3.2) per block: an in-block inclusive scan
// of the invalid flags, then one search pass following MAS pointers (ALGORITHMS.md §5). Unstable.
// Example, B = 8: V I I V I V V I (x0 … x7) → holes 1 and 2 walk 1→7→4→5 and 2→6: x0 x5 x6 x3.
#include "algorithms.hpp"
#include "compaction.hpp"

namespace winnow::gl {
namespace {

class jumping_jack final : public scan_then_search {
  // Hops ≤ z_b ≤ B − 1; the shader caps its loop at B itself.
  void prepare_in_block(const params&) override { prepare_search("jj_search.frag", m_block - 1, -1); }
};

} // namespace

algorithm_entry jumping_jack_entry() {
  return {{"gl", "jj", "Jumping Jack: holes follow MAS = B − P pointers to the tail's valid elements; block concatenation",
           false, false, input_kind::predicate, {block_axis(), scan_axis(), concat_axis()}},
          [] { return std::make_unique<jumping_jack>(); }};
}

} // namespace winnow::gl
