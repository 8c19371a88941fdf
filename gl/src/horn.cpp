// gl/horn — Horn's gather-search (GPU Gems 2, ch. 36; Moreira et al. 2009 §3.1) per block:
// an in-block inclusive scan of the invalid flags, then one search pass (ALGORITHMS.md §4).
// Example, B = 8: x = 5 0 0 8 0 6 7 0 → P = 0 1 2 2 3 3 3 4, v = 4 → 5 8 6 7.
#include "algorithms.hpp"
#include "compaction.hpp"

namespace winnow::gl {
namespace {

class horn final : public block_compaction {
  void prepare_in_block(const params&) override {
    m_scan_passes = std::make_unique<segmented_scan>(m_layout.width, m_layout.height, m_block, m_scan);
    m_search = program("fullscreen.vert", "horn_search.frag", loop_check_define());
    m_loop_bound = m_log2_block;
  }
  const texture& run_in_block(timer& t, const framebuffer& out) override {
    t.phase("scan");
    const texture& p = m_scan_passes->run(m_runner, m_data, value_map::invalid_flag);
    t.phase("search");
    bind(0, m_data);
    bind(1, p);
    set(m_search, 0, m_block);
    set(m_search, 1, m_log2_block);
    m_runner.draw(m_search, out, m_layout.width, m_layout.height, 2);
    return p;
  }
  count_source counts_from() const override { return count_source::invalid_scan; }

  std::unique_ptr<segmented_scan> m_scan_passes;
  program m_search;
};

} // namespace

algorithm_entry horn_entry() {
  return {{"gl", "horn", "Horn's gather-search on the in-block prefix sum of invalid flags; block concatenation", true,
           false, input_kind::predicate, {block_axis(), scan_axis(), concat_axis(true)}},
          [] { return std::make_unique<horn>(); }};
}

} // namespace winnow::gl
