// vk/rlz — RLZ, Run-Lengths of Zeros (Moreira et al. 2009 §3.3, Alg. 1-4) per block: the run
// length of invalid elements starting at each element (recursive doubling, or the modified up- and
// down-sweep), kept at run starts only (the filter, fused into the first pass of the scan), their
// in-block inclusive scan pRL, then the forward search d ← pRL[c + d] (ALGORITHMS.md §6).
// Example, B = 8: x = a 0 0 b 0 c d 0 → RL = 0 2 1 0 1 0 0 1, F = 0 2 0 0 1 0 0 1,
// pRL = 0 2 2 2 3 3 3 4; output 2: d = 2 → pRL[4] = 3 → pRL[5] = 3: c. Output a b c d.
#include "algorithms.hpp"
#include "compaction.hpp"

namespace winnow::vk {
namespace {

class rlz final : public block_compaction {
  void prepare_in_block(const params& p) override {
    m_tree = p.at("runs") == "tree";
    m_fast = p.at("search") == "fast";
    m_rl[0] = buffer("vk/rlz run lengths", 4 * m_size);
    m_rl[1] = buffer(m_tree ? "vk/rlz up-sweep levels" : "vk/rlz run lengths (pong)", 4 * m_size);
    if (m_tree) m_down = buffer("vk/rlz down-sweep levels", 4 * m_size);
    m_prl = std::make_unique<segmented_scan>(m_size, m_block, m_scan);
    // Each non-final trip passes one more invalid run: ≤ ⌈B/2⌉ + 1 (§6d); two hops per trip halve it.
    m_loop_bound = m_fast ? m_block / 4 + 1 : m_block / 2 + 1;
  }

  /// §6a: log2 B doubling passes; returns the buffer holding RL.
  const buffer& doubling() {
    const pipeline& p = shader("rl_double", default_local_size());
    for (std::uint32_t k = 0; k < m_log2_block; ++k) {
      pass_args a;
      a.a = k == 0 ? m_data.address() : m_rl[(k - 1) % 2].address();
      a.dst = m_rl[k % 2].address();
      a.k0 = 1u << k;
      a.k1 = m_block;
      a.k2 = k == 0 ? static_cast<std::uint32_t>(value_map::invalid_flag) : 0;
      m_runner.run(p, a, m_size, 1);
    }
    return m_rl[(m_log2_block - 1) % 2];
  }

  /// §6b: log2 B up-sweep and log2 B down-sweep passes, the last writing RL into m_rl[0].
  const buffer& tree() {
    const std::uint32_t local = default_local_size(), invalid = static_cast<std::uint32_t>(value_map::invalid_flag);
    const auto us = [&](std::uint32_t p) { return m_rl[1].address(4 * level_offset(m_size, p)); };
    const auto ds = [&](std::uint32_t p) { return m_down.address(4 * level_offset(m_size, p)); };
    for (std::uint32_t p = 1; p <= m_log2_block; ++p) {
      pass_args a;
      a.a = p == 1 ? m_data.address() : us(p - 1);
      a.dst = us(p);
      a.k0 = 1u << (p - 1);
      a.k1 = m_block;
      a.k2 = p == 1 ? invalid : 0;
      m_runner.run(shader("rl_up", local), a, m_size >> p, 2);
    }
    for (std::uint32_t p = m_log2_block; p-- > 0;) {
      const bool top = p == m_log2_block - 1;
      pass_args a;
      a.a = top ? 0 : ds(p + 1);
      a.b = p == 0 ? m_data.address() : us(p);
      a.dst = p == 0 ? m_rl[0].address() : ds(p);
      a.k0 = (top ? 1u : 0u) | (p == 0 ? 2u : 0u);
      a.k1 = 1u << p;
      a.k2 = p == 0 ? invalid : 0;
      m_runner.run(shader("rl_down", local), a, m_size >> p, top ? 1 : 1.5);
    }
    return m_rl[0];
  }

  VkDeviceAddress run_in_block(timer& t) override {
    t.phase("runs");
    const buffer& rl = m_tree ? tree() : doubling();
    t.phase("scan");
    const buffer& prl = m_prl->run(m_runner, rl, value_map::run_start);
    t.phase("search");
    pass_args a = search_args();
    a.a = m_data.address();
    a.b = prl.address();
    a.dst = m_compacted.address();
    m_runner.run(search_pipeline("rlz_search", m_loop_bound, {m_fast ? 1u : 0u}), a, m_size, 2);
    return prl.address();
  }
  count_source counts_from() const override { return count_source::invalid_scan; }
  std::string name() const override { return "vk/rlz"; }

  bool m_tree = false, m_fast = false;
  buffer m_rl[2], m_down;
  std::unique_ptr<segmented_scan> m_prl;
};

} // namespace

algorithm_entry rlz_entry() {
  return {{"vk", "rlz", "RLZ: forward search on the prefix sum of invalid run lengths; block concatenation", true, false,
           input_kind::predicate,
           {block_axis(), scan_axis(), concat_axis(),
            {"runs", "run lengths by modified recursive doubling (M09 Alg. 2) or up-/down-sweep (Alg. 3, 4)", "doubling",
             {"doubling", "tree"}, true},
            {"search", "forward search: one hop per loop trip, or two (M09: ~20% faster)", "fast", {"plain", "fast"}, true}}},
          [] { return std::make_unique<rlz>(); }};
}

} // namespace winnow::vk
