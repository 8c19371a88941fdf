// gl/jj — Jumping Jack (Moreira et al., GRAPP 2009; M09 §3.2) per block: an in-block inclusive scan
// of the invalid flags, then one search pass following MAS pointers (ALGORITHMS.md §5). Unstable.
// Example, B = 8: V I I V I V V I (x0 … x7) → holes 1 and 2 walk 1→7→4→5 and 2→6: x0 x5 x6 x3.
#include "algorithms.hpp"
#include "compaction.hpp"

namespace winnow::gl {
namespace {

class jumping_jack final : public block_compaction {
  void prepare_in_block(const params&) override {
    m_scan_passes = std::make_unique<segmented_scan>(m_layout.width, m_layout.height, m_block, m_scan);
    m_search = program("fullscreen.vert", "jj_search.frag", loop_check_define());
    m_loop_bound = m_block - 1; // hops ≤ z ≤ B − 1
  }
  const texture& run_in_block(timer& t, const framebuffer& out) override {
    t.phase("scan");
    const texture& p = m_scan_passes->run(m_runner, m_data, value_map::invalid_flag);
    t.phase("search");
    bind(0, m_data);
    bind(1, p);
    set(m_search, 0, m_block);
    m_runner.draw(m_search, out, m_layout.width, m_layout.height, 2);
    return p;
  }
  count_source counts_from() const override { return count_source::invalid_scan; }

  std::unique_ptr<segmented_scan> m_scan_passes;
  program m_search;
};

} // namespace

algorithm_entry jumping_jack_entry() {
  return {{"gl", "jj", "Jumping Jack: holes follow MAS = B − P pointers to the tail's valid elements; block concatenation",
           false, false, input_kind::predicate, {block_axis(), scan_axis(), concat_axis()}},
          [] { return std::make_unique<jumping_jack>(); }};
}

} // namespace winnow::gl
