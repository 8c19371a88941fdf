// vk/jj — Jumping Jack (Moreira et al., GRAPP 2009; M09 §3.2) per block, as ALGORITHMS.md §5
// reconstructs it: an in-block scan P of the invalid flags, then one pass in which every hole of
// [0, v_b) follows MAS[p] = B − P[p] to a valid element of the tail. Not stable.
// Example, B = 8: x = a 0 0 b 0 c d 0 → P = 0 1 2 2 3 3 3 4, v = 4; hole 1 walks 1→7→4→5,
// hole 2 walks 2→6 → a c d b.
#include "algorithms.hpp"
#include "compaction.hpp"

namespace winnow::vk {
namespace {

class jumping_jack final : public block_compaction {
  void prepare_in_block(const params&) override {
    m_scan_passes = std::make_unique<segmented_scan>(m_size, m_block, m_scan);
    m_loop_bound = m_block - 1; // hops ≤ z_b ≤ B − 1, tight (§5)
  }
  VkDeviceAddress run_in_block(timer& t) override {
    t.phase("scan");
    const buffer& p = m_scan_passes->run(m_runner, m_data, value_map::invalid_flag);
    t.phase("search");
    pass_args a = search_args();
    a.a = m_data.address();
    a.b = p.address();
    a.dst = m_compacted.address();
    // Reads the stream and the scan; the hops (≤ z_b per block) revisit the block: cache hits.
    m_runner.run(search_pipeline("jj_search", m_loop_bound), a, m_size, 2);
    return p.address();
  }
  count_source counts_from() const override { return count_source::invalid_scan; }
  std::string name() const override { return "vk/jj"; }

  std::unique_ptr<segmented_scan> m_scan_passes;
};

} // namespace

algorithm_entry jumping_jack_entry() {
  return {{"vk", "jj", "Jumping Jack: holes follow the MAS pointers (B − P) into the block's tail; not stable", false, false,
           input_kind::predicate, {block_axis(), scan_axis(), concat_axis()}},
          [] { return std::make_unique<jumping_jack>(); }};
}

} // namespace winnow::vk
