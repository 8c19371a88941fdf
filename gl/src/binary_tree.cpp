// gl/bt — Binary-Tree (Moreira et al. 2009 §3.4, Alg. 5) per block: log2 B reduction passes build
// the pyramid of valid counts, one traversal pass finds every output's source (ALGORITHMS.md §7).
// Example, B = 4: x = 0 7 0 9 → levels 0 1 0 1 | 1 1 | 2 → output 0 descends left→right: 7; 1: 9.
#include "algorithms.hpp"
#include "compaction.hpp"

namespace winnow::gl {
namespace {

class binary_tree final : public block_compaction {
  void prepare_in_block(const params&) override {
    m_levels.clear();
    for (int p = 1; p <= m_log2_block; ++p) {
      level l{texture(texel_format::r32ui, m_layout.width >> p, m_layout.height), {}};
      l.fbo = framebuffer({&l.tex});
      m_levels.push_back(std::move(l));
    }
    m_reduce = program("fullscreen.vert", "scan_up.frag");
    m_traverse = program("fullscreen.vert", "bt_traverse.frag", loop_check_define());
    m_loop_bound = m_log2_block;
  }
  const texture& run_in_block(timer& t, const framebuffer& out) override {
    t.phase("reduce");
    for (int p = 1; p <= m_log2_block; ++p) {
      bind(0, p == 1 ? m_data : m_levels[static_cast<std::size_t>(p - 2)].tex);
      set(m_reduce, 0, p == 1 ? static_cast<int>(value_map::valid_flag) : 0);
      m_runner.draw(m_reduce, m_levels[static_cast<std::size_t>(p - 1)].fbo, m_layout.width >> p, m_layout.height, 2);
    }
    t.phase("traverse");
    for (int unit = 0; unit < 12; ++unit)
      bind(unit, unit >= 1 && unit <= m_log2_block ? m_levels[static_cast<std::size_t>(unit - 1)].tex : m_data);
    set(m_traverse, 0, m_block);
    set(m_traverse, 1, m_log2_block);
    m_runner.draw(m_traverse, out, m_layout.width, m_layout.height, 2); // the stream + ½ + ¼ + … of it
    return m_levels.back().tex; // the root of every block: its count
  }
  count_source counts_from() const override { return count_source::per_block; }

  struct level {
    texture tex;
    framebuffer fbo;
  };
  std::vector<level> m_levels;
  program m_reduce, m_traverse;
};

} // namespace

algorithm_entry binary_tree_entry() {
  return {{"gl", "bt", "Binary-Tree: reduction pyramid of valid counts and per-output traversal; block concatenation",
           true, false, input_kind::predicate, {block_axis(), scan_axis(), concat_axis()}},
          [] { return std::make_unique<binary_tree>(); }};
}

} // namespace winnow::gl
