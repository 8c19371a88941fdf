// vk/bt — Binary-Tree (Moreira et al. 2009 §3.4, Alg. 5) per block: log2 B reduction passes build
// the pyramid of valid counts, one traversal pass finds every output's source (ALGORITHMS.md §7).
// Example, B = 4: x = 0 7 0 9 → levels 0 1 0 1 | 1 1 | 2 → output 0 descends left→right: 7; 1: 9.
#include "algorithms.hpp"
#include "compaction.hpp"

namespace winnow::vk {
namespace {

class binary_tree final : public block_compaction {
  void prepare_in_block(const params&) override {
    m_levels = buffer("vk/bt levels", 4 * m_size);
    m_loop_bound = m_log2_block;
  }
  VkDeviceAddress level(std::uint32_t p) const { return m_levels.address(4 * level_offset(m_size, p)); }
  VkDeviceAddress run_in_block(timer& t) override {
    t.phase("reduce");
    const pipeline& reduce = shader("scan_up", default_local_size());
    for (std::uint32_t p = 1; p <= m_log2_block; ++p) {
      pass_args a;
      a.a = p == 1 ? m_data.address() : level(p - 1);
      a.dst = level(p);
      a.k1 = m_block;
      a.k2 = p == 1 ? static_cast<std::uint32_t>(value_map::valid_flag) : 0;
      m_runner.run(reduce, a, m_size >> p, 2);
    }
    t.phase("traverse");
    pass_args a = search_args();
    a.a = m_data.address();
    a.b = m_levels.address();
    a.dst = m_compacted.address();
    a.k0 = static_cast<std::uint32_t>(m_size);
    m_runner.run(search_pipeline("bt_traverse", m_log2_block), a, m_size, 2); // the stream + ½ + ¼ + … of it
    return level(m_log2_block); // the root of every block: its count
  }
  count_source counts_from() const override { return count_source::per_block; }
  std::string name() const override { return "vk/bt"; }

  buffer m_levels;
};

} // namespace

algorithm_entry binary_tree_entry() {
  return {{"vk", "bt", "Binary-Tree: reduction pyramid of valid counts and per-output traversal; block concatenation",
           true, false, input_kind::predicate, {block_axis(), scan_axis(), concat_axis()}},
          [] { return std::make_unique<binary_tree>(); }};
}

} // namespace winnow::vk
