// gl/rlz — RLZ, run-lengths of zeros (M09 §3.3) per block: run lengths of the invalid runs (modified
// recursive doubling, Alg. 2, or modified up/down-sweep, Alg. 3-4), a filter keeping each run's
// length at its start, an inclusive scan of that (pRL), and the forward search (Alg. 1), plain or
// with two hops per iteration (ALGORITHMS.md §6).
// Example, B = 8: V I I V I V V I → RL 0 2 1 0 1 0 0 1, F 0 2 0 0 1 0 0 1, pRL 0 2 2 2 3 3 3 4;
// output 2: d = 2 → pRL[4] = 3 → pRL[5] = 3: x5.
#include "algorithms.hpp"
#include "compaction.hpp"

namespace winnow::gl {
namespace {

class rlz final : public block_compaction {
  struct level {
    texture tex;
    framebuffer fbo;
  };
  level make_level(int width) {
    level l{texture(texel_format::r32ui, width, m_layout.height), {}};
    l.fbo = framebuffer({&l.tex});
    return l;
  }

  void prepare_in_block(const params& p) override {
    m_tree = p.at("runs") == "tree";
    m_fast = p.at("search") == "fast";
    m_up.clear();
    m_down.clear();
    m_ping.clear();
    if (m_tree) {
      for (int l = 1; l <= m_log2_block; ++l) m_up.push_back(make_level(m_layout.width >> l));
      for (int l = 0; l < m_log2_block; ++l) m_down.push_back(make_level(m_layout.width >> l));
      m_up_prog = program("fullscreen.vert", "rl_up.frag");
      m_down_prog = program("fullscreen.vert", "rl_down.frag");
    } else {
      m_ping.push_back(make_level(m_layout.width));
      m_ping.push_back(make_level(m_layout.width));
      m_doubling = program("fullscreen.vert", "rl_doubling.frag");
    }
    m_filtered = std::make_unique<level>(make_level(m_layout.width));
    m_filter = program("fullscreen.vert", "rl_filter.frag");
    m_scan_passes = std::make_unique<segmented_scan>(m_layout.width, m_layout.height, m_block, m_scan);
    m_search = program("fullscreen.vert", "rlz_search.frag", loop_check_define());
    // Iterations ≤ (invalid runs in the block) + 1 ≤ B/2 + 1; two hops per iteration halve that.
    m_loop_bound = m_fast ? (m_block / 2 + 2) / 2 : m_block / 2 + 1;
  }

  /// RL[i]: the length of the invalid run starting at i, cut at the block's end.
  const texture& run_lengths() {
    const int map = static_cast<int>(value_map::invalid_flag);
    if (!m_tree) {
      const texture* in = &m_data;
      for (int k = 0; k < m_log2_block; ++k) {
        level& out = m_ping[static_cast<std::size_t>(k % 2)];
        bind(0, *in);
        set(m_doubling, 0, 1 << k);
        set(m_doubling, 1, m_block);
        set(m_doubling, 2, k == 0 ? map : 0);
        m_runner.draw(m_doubling, out.fbo, m_layout.width, m_layout.height, 1);
        in = &out.tex;
      }
      return *in;
    }
    for (int l = 1; l <= m_log2_block; ++l) {
      bind(0, l == 1 ? m_data : m_up[static_cast<std::size_t>(l - 2)].tex);
      set(m_up_prog, 0, 1 << (l - 1));
      set(m_up_prog, 1, l == 1 ? map : 0);
      m_runner.draw(m_up_prog, m_up[static_cast<std::size_t>(l - 1)].fbo, m_layout.width >> l, m_layout.height, 2);
    }
    for (int l = m_log2_block - 1; l >= 0; --l) {
      const bool top = l == m_log2_block - 1;
      const texture& up = l == 0 ? m_data : m_up[static_cast<std::size_t>(l - 1)].tex;
      bind(0, top ? up : m_down[static_cast<std::size_t>(l + 1)].tex);
      bind(1, up);
      set(m_down_prog, 0, top ? 1 : 0);
      set(m_down_prog, 1, 1 << l);
      set(m_down_prog, 2, l == 0 ? 1 : 0);
      set(m_down_prog, 3, l == 0 ? map : 0);
      m_runner.draw(m_down_prog, m_down[static_cast<std::size_t>(l)].fbo, m_layout.width >> l, m_layout.height, top ? 1 : 1.5);
    }
    return m_down[0].tex;
  }

  const texture& run_in_block(timer& t, const framebuffer& out) override {
    t.phase("runs");
    const texture& rl = run_lengths();
    bind(0, rl);
    set(m_filter, 0, m_block);
    m_runner.draw(m_filter, m_filtered->fbo, m_layout.width, m_layout.height, 1);
    t.phase("scan");
    const texture& prl = m_scan_passes->run(m_runner, m_filtered->tex, value_map::identity);
    t.phase("search");
    bind(0, m_data);
    bind(1, prl);
    set(m_search, 0, m_block);
    set(m_search, 1, m_fast ? 1 : 0);
    set(m_search, 2, m_loop_bound);
    m_runner.draw(m_search, out, m_layout.width, m_layout.height, 2);
    return prl; // pRL[last] = z, as P[last] is
  }
  count_source counts_from() const override { return count_source::invalid_scan; }

  bool m_tree = false, m_fast = false;
  std::vector<level> m_up, m_down, m_ping;
  std::unique_ptr<level> m_filtered;
  std::unique_ptr<segmented_scan> m_scan_passes;
  program m_doubling, m_up_prog, m_down_prog, m_filter, m_search;
};

} // namespace

algorithm_entry rlz_entry() {
  return {{"gl", "rlz", "RLZ: run lengths of invalid runs, their scan, and a forward search; block concatenation", true,
           false, input_kind::predicate,
           {block_axis(), scan_axis(), concat_axis(),
            {"runs", "run lengths by modified recursive doubling (M09 Alg. 2) or up/down-sweep (Alg. 3-4)", "doubling",
             {"doubling", "tree"}, true},
            {"search", "forward search: one hop per iteration, or two (M09's faster form)", "fast", {"plain", "fast"}, true}}},
          [] { return std::make_unique<rlz>(); }};
}

} // namespace winnow::gl
