// vk/horn — Horn's gather-search (GPU Gems 2, ch. 36; Moreira et al. 2009 §3.1) per block: an
// in-block inclusive scan of the invalid flags, then one search pass (ALGORITHMS.md §4).
// Example, B = 8: x = 5 0 0 8 0 6 7 0 → P = 0 1 2 2 3 3 3 4, v = 4 → 5 8 6 7.
#include "algorithms.hpp"
#include "compaction.hpp"

namespace winnow::vk {
namespace {

class horn final : public block_compaction {
  void prepare_in_block(const params&) override {
    m_scan_passes = std::make_unique<segmented_scan>(m_size, m_block, m_scan);
    m_loop_bound = m_log2_block;
  }
  VkDeviceAddress run_in_block(timer& t) override {
    t.phase("scan");
    const buffer& p = m_scan_passes->run(m_runner, m_data, value_map::invalid_flag);
    t.phase("search");
    pass_args a = search_args();
    a.a = m_data.address();
    a.b = p.address();
    a.dst = m_compacted.address();
    m_runner.run(search_pipeline("horn_search", m_log2_block), a, m_size, 2);
    return p.address();
  }
  count_source counts_from() const override { return count_source::invalid_scan; }
  std::string name() const override { return "vk/horn"; }

  std::unique_ptr<segmented_scan> m_scan_passes;
};

} // namespace

algorithm_entry horn_entry() {
  return {{"vk", "horn", "Horn's gather-search on the in-block prefix sum of invalid flags; block concatenation", true,
           false, input_kind::predicate, {block_axis(), scan_axis(), concat_axis(true)}},
          [] { return std::make_unique<horn>(); }};
}

} // namespace winnow::vk
