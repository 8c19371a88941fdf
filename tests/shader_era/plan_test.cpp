// The shader-era frame as data, without any GPU: the passes each algorithm's plan holds (counted by an
// independent restatement of the pass model), that every pass reads and writes what exists, the
// proven loop bounds, the traffic model, and the layout limits. Every executor runs these plans, so
// "pass for pass" between the APIs is a property of this code.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "winnow/error.hpp"
#include "winnow/shader_era/frame.hpp"

namespace winnow::shader_era {
namespace {

constexpr std::uint32_t max_width = 32768;

/// `variant`: RLZ's run lengths by up/down-sweep, Horn's search by steps (one pass each).
plan make(algorithm_kind a, std::uint32_t block, scan_kind scan, std::uint64_t n, bool variant = false,
          std::uint64_t removals = 0, bool loop_check = false) {
  plan_params p;
  p.block = block;
  p.scan = scan;
  p.runs_tree = variant;
  p.horn_steps = variant && a == algorithm_kind::horn;
  return build_plan(a, p, {n, removals, removals > 0, n / 2}, max_width, loop_check);
}

// The pass model, restated: a segmented scan of log2 seg passes (Hillis-Steele; one pass to apply a
// map when seg = 1) or 2 log2 seg (Blelloch); a stream scan over `count` values scans its rows, then
// (more than one row) gathers the row totals, scans them, and finishes.
std::uint64_t pow2_at_least_sqrt(std::uint64_t n, std::uint64_t w) {
  while (w * w < n) w *= 2;
  return w;
}
std::uint64_t log2u(std::uint64_t v) {
  std::uint64_t l = 0;
  while ((1ull << l) < v) ++l;
  return l;
}
std::uint64_t seg_passes(std::uint64_t seg, bool blelloch) { return blelloch ? 2 * log2u(seg) : log2u(seg); }
std::uint64_t stream_scan_passes(std::uint64_t count, bool blelloch) {
  const std::uint64_t w = pow2_at_least_sqrt(count, 1), h = (count + w - 1) / w;
  return seg_passes(w, blelloch) + (h > 1 ? 1 + stream_scan_passes(h, blelloch) : 0) + 1;
}

TEST(shader_era_plan, passes_follow_the_pass_model) {
  for (const std::uint64_t n : {4096ull, 100003ull, 1ull << 22})
    for (const std::uint64_t block : {32ull, 512ull, 2048ull})
      for (const bool blelloch : {false, true}) {
        const scan_kind scan = blelloch ? scan_kind::blelloch : scan_kind::hillis;
        const std::uint64_t w = pow2_at_least_sqrt(n, block), s = w * ((n + w - 1) / w);
        const std::uint64_t lb = log2u(block), in_block_scan = seg_passes(block, blelloch);
        const std::uint64_t frame = 1 + stream_scan_passes(s / block, blelloch) + 1; // count, offsets, concat
        const std::map<algorithm_kind, std::uint64_t> expected = {
            {algorithm_kind::horn, in_block_scan + 1 + frame},
            {algorithm_kind::jj, in_block_scan + 1 + frame},
            {algorithm_kind::bt, lb + 1 + frame},
            {algorithm_kind::rlz, lb + in_block_scan + 1 + frame}}; // runs by doubling; the filter fused into the scan
        for (const auto& [a, passes] : expected)
          EXPECT_EQ(make(a, static_cast<std::uint32_t>(block), scan, n).passes.size(), passes)
              << name_of(a) << " B=" << block << (blelloch ? " blelloch" : " hillis") << " n=" << n;
        EXPECT_EQ(make(algorithm_kind::rlz, static_cast<std::uint32_t>(block), scan, n, true).passes.size(),
                  2 * lb + in_block_scan + 1 + frame);
        plan_params steps;
        steps.block = static_cast<std::uint32_t>(block);
        steps.scan = scan;
        steps.horn_steps = true;
        const plan horn_steps = build_plan(algorithm_kind::horn, steps, {n, 0, false, n / 2}, max_width, false);
        EXPECT_EQ(horn_steps.passes.size(), in_block_scan + lb + 1 + frame)
            << "Horn (2005): a pass per step and a gather";
        for (const pass& ps : horn_steps.passes) EXPECT_FALSE(ps.loop) << ps.name;
        EXPECT_FALSE(build_plan(algorithm_kind::horn, steps, {n, 0, false, n / 2}, max_width, true).loop_check)
            << "no loop, so no trips to check";
        EXPECT_EQ(make(algorithm_kind::horn, static_cast<std::uint32_t>(block), scan, n, false, 7).passes.size(),
                  in_block_scan + 1 + frame + 1)
            << "a removal list adds the mark pass";
      }
}

TEST(shader_era_plan, every_pass_reads_and_writes_what_exists) {
  for (const algorithm_kind a : {algorithm_kind::horn, algorithm_kind::jj, algorithm_kind::rlz, algorithm_kind::bt})
    for (const bool tree : {false, true})
      for (const scan_kind scan : {scan_kind::hillis, scan_kind::blelloch}) {
        const plan p = make(a, 128, scan, 100003, tree, 31, true);
        ASSERT_EQ(p.passes.front().kind, pass_kind::mark);
        ASSERT_EQ(p.passes.back().kind, pass_kind::concat);
        std::string phase;
        std::vector<std::string> phases;
        for (const pass& ps : p.passes) {
          if (ps.phase != phase) phases.push_back(phase = ps.phase);
          ASSERT_LE(ps.inputs.size(), 3u) << ps.name;
          for (const view& v : ps.inputs) {
            ASSERT_LT(v.id, p.resources.size()) << ps.name;
            const resource& r = p.resources[v.id];
            if (v.level != view::all_levels) {
              EXPECT_LE(v.level, r.levels) << ps.name << " reads past " << r.name;
            } else {
              EXPECT_GT(r.levels, 0u) << ps.name;
            }
          }
          ASSERT_LT(ps.output.id, p.resources.size()) << ps.name;
          EXPECT_NE(ps.output.level, view::all_levels) << ps.name;
          if (ps.kind == pass_kind::gather) {
            EXPECT_EQ(ps.io.extent, p.written(ps)) << ps.name;
            EXPECT_EQ(1u << ps.io.out_log2w, p.width_of(ps.output)) << ps.name;
            EXPECT_EQ(ps.io.out_height, p.height_of(ps.output)) << ps.name;
            for (std::size_t k = 0; k < ps.inputs.size(); ++k) {
              if (ps.inputs[k].level != view::all_levels) {
                EXPECT_EQ(1u << ps.io.in_log2w[k], p.width_of(ps.inputs[k])) << ps.name;
              }
            }
          }
        }
        // Phases in the order the papers name them, each once.
        const std::vector<std::string> in_block =
            a == algorithm_kind::bt    ? std::vector<std::string>{"reduce", "traverse"}
            : a == algorithm_kind::rlz ? std::vector<std::string>{"runs", "scan", "search"}
                                       : std::vector<std::string>{"scan", "search"};
        std::vector<std::string> want{"mark"};
        want.insert(want.end(), in_block.begin(), in_block.end());
        want.insert(want.end(), {"count", "concat"});
        EXPECT_EQ(phases, want) << name_of(a);
        // The loop passes, and only they, write trips: one, or none in Horn's search by steps.
        std::size_t loops = 0;
        for (const pass& ps : p.passes) loops += ps.loop;
        EXPECT_EQ(loops, a == algorithm_kind::horn && tree ? 0u : 1u) << name_of(a);
      }
}

TEST(shader_era_plan, loop_bounds_are_the_proven_ones) {
  EXPECT_EQ(loop_bound(algorithm_kind::horn, 128, true), 7u);
  EXPECT_EQ(loop_bound(algorithm_kind::jj, 128, true), 127u);
  EXPECT_EQ(loop_bound(algorithm_kind::rlz, 128, false), 65u);
  EXPECT_EQ(loop_bound(algorithm_kind::rlz, 128, true), 33u);
  EXPECT_EQ(loop_bound(algorithm_kind::bt, 2048, true), 11u);
  // The search passes get their bound as the loop's cap.
  const plan p = make(algorithm_kind::jj, 512, scan_kind::hillis, 4096);
  for (const pass& ps : p.passes) {
    if (ps.loop) { EXPECT_EQ(ps.args.at(1), 511u); }
  }
}

TEST(shader_era_plan, traffic_counts_distinct_words_per_pass) {
  // Binary-Tree, B = 32, 1024 elements in a 32 × 32 layout: 5 reduction passes (2 reads per word
  // written: 512 + 256 + … + 32 words), the traversal (2 reads per word), the count (32 blocks on a
  // 8 × 4 layout: 32 words), the offsets' scan (3 Hillis passes over the 8-wide rows, gather into a
  // 4-word row, its 2 Hillis passes and finish, then finish), and the concatenation.
  const plan p = make(algorithm_kind::bt, 32, scan_kind::hillis, 1024);
  const traffic t = p.traffic_model();
  EXPECT_EQ(t.launches, p.passes.size());
  std::uint64_t written = 0;
  for (const pass& ps : p.passes) written += p.written(ps);
  EXPECT_EQ(t.written, 4 * written);
  EXPECT_EQ(p.written(p.passes.back()), 512u) << "the concatenation writes the survivors";
  EXPECT_EQ(p.written(p.passes.at(0)), 512u) << "the first reduction writes half the stream";
}

TEST(shader_era_plan, a_stream_over_the_layout_limit_is_unavailable_naming_it) {
  plan_params p;
  try {
    (void)build_plan(algorithm_kind::horn, p, {1ull << 31, 0, false, 0}, 16384, false);
    FAIL() << "no error";
  } catch (const unavailable& e) {
    EXPECT_NE(std::string(e.what()).find("16384 × 16384"), std::string::npos) << e.what();
  }
  p.block = 2048;
  EXPECT_THROW((void)build_plan(algorithm_kind::bt, p, {4096, 0, false, 0}, 1024, false), unavailable);
}

TEST(shader_era_plan, apis_with_different_limits_lay_small_streams_out_alike) {
  for (const std::uint64_t n : {1ull, 1000ull, 100003ull, 1ull << 24}) {
    const plan a = build_plan(algorithm_kind::rlz, {}, {n, 0, false, 0}, 16384, false);
    const plan b = build_plan(algorithm_kind::rlz, {}, {n, 0, false, 0}, 32768, false);
    EXPECT_EQ(a.passes.size(), b.passes.size()) << n;
    EXPECT_EQ(a.layout.width, b.layout.width) << n;
  }
}

TEST(shader_era_info, axes_are_shared_and_concatenation_is_the_apis_own) {
  const algorithm_info gl = info("gl", algorithm_kind::horn, {concat_method::lines, concat_method::rects});
  const algorithm_info vk = info("vk", algorithm_kind::horn, {concat_method::copy, concat_method::search});
  ASSERT_EQ(gl.axes.size(), vk.axes.size());
  for (std::size_t i = 0; i < gl.axes.size(); ++i) {
    EXPECT_EQ(gl.axes[i].key, vk.axes[i].key);
    if (gl.axes[i].key != "concat") { EXPECT_EQ(gl.axes[i].values, vk.axes[i].values) << gl.axes[i].key; }
  }
  EXPECT_EQ(resolve_params(gl, {}).text("concat"), "lines");
  EXPECT_EQ(resolve_params(vk, {}).text("concat"), "copy");
  const plan_params typed = plan_params_of(resolve_params(info("vk", algorithm_kind::rlz, {concat_method::copy}),
                                                          {{"block", "512"}, {"runs", "tree"}, {"search", "plain"}}));
  EXPECT_EQ(typed.block, 512u);
  EXPECT_TRUE(typed.runs_tree);
  EXPECT_FALSE(typed.fast_search);
  EXPECT_EQ(typed.concat, concat_method::copy);
  EXPECT_EQ(typed.loop_limit, 0u);
  const algorithm_info frag =
      info("vkfrag", algorithm_kind::jj, {concat_method::automatic, concat_method::lines, concat_method::rects});
  EXPECT_EQ(resolve_params(frag, {}).text("concat"), "auto");
  EXPECT_EQ(plan_params_of(resolve_params(frag, {{"concat", "auto"}})).concat, concat_method::automatic);
  EXPECT_EQ(plan_params_of(resolve_params(frag, {{"loop_limit", "256"}})).loop_limit, 256u);
}

TEST(shader_era_plan, stacks_hold_eight_neighbours_one_above_the_other_and_fill_whole_bands) {
  // W = 4: stacks 0-3 in rows 0-7 (band 0), stacks 4-7 in rows 8-15; word t at row 8·band + t mod 8.
  const std::uint64_t want[] = {0, 4, 8, 12, 16, 20, 24, 28, 1, 5, 9};
  for (std::uint64_t t = 0; t < std::size(want); ++t) EXPECT_EQ(stack_position(t, 2), want[t]) << t;
  EXPECT_EQ(stack_position(31, 2), 31u);
  EXPECT_EQ(stack_position(32, 2), 32u);
  EXPECT_EQ(stack_position(33, 2), 36u);
  std::set<std::uint64_t> seen; // every place of a 4 × 16 array once
  for (std::uint64_t t = 0; t < 64; ++t) seen.insert(stack_position(t, 2));
  EXPECT_EQ(seen.size(), 64u);
  EXPECT_EQ(*seen.rbegin(), 63u);
  plan_case c;
  c.n = 512 * 195; // a 512 × 195 layout: stacks need rows up to 200 for the last band
  c.kept = c.n;
  for (const concat_method m : {concat_method::lines, concat_method::stacks}) {
    const plan p = build_plan(algorithm_kind::bt, {.block = 512, .concat = m}, c, 32768, false);
    ASSERT_EQ(p.layout.height, 195u);
    EXPECT_EQ(p.output_in_stacks(), m == concat_method::stacks);
    EXPECT_EQ(p.height_of(view{p.output}), m == concat_method::stacks ? 200u : 195u);
  }
}

TEST(shader_era_plan, concat_auto_is_resolved_before_a_plan_is_built) {
  plan_params p;
  p.concat = concat_method::automatic;
  EXPECT_THROW((void)build_plan(algorithm_kind::horn, p, {4096, 0, false, 0}, max_width, false), error);
}

TEST(shader_era_plan, a_loop_limit_of_256_refuses_what_the_7300_go_could_not_run_and_changes_nothing_else) {
  // Bounds over 256: JJ from B = 512 (B − 1), RLZ plain from 512 (B/2 + 1 = 257), RLZ fast from 1024 (B/4 + 1).
  const std::map<std::pair<algorithm_kind, std::uint32_t>, bool> refused = {
      {{algorithm_kind::horn, 2048}, false}, {{algorithm_kind::bt, 2048}, false}, {{algorithm_kind::jj, 256}, false},
      {{algorithm_kind::jj, 512}, true},     {{algorithm_kind::rlz, 512}, false}, {{algorithm_kind::rlz, 1024}, true},
      {{algorithm_kind::rlz, 2048}, true}};
  for (const auto& [key, want] : refused) {
    plan_params p;
    p.block = key.second;
    p.loop_limit = 256;
    const plan_case c{1u << 20, 0, false, 1u << 19};
    if (want) {
      try {
        (void)build_plan(key.first, p, c, max_width, false);
        ADD_FAILURE() << name_of(key.first) << " B=" << key.second << " not refused";
      } catch (const unavailable& e) {
        EXPECT_NE(std::string(e.what()).find("loop_limit=256"), std::string::npos) << e.what();
      }
      continue;
    }
    const plan limited = build_plan(key.first, p, c, max_width, false);
    p.loop_limit = 0;
    const plan free = build_plan(key.first, p, c, max_width, false);
    EXPECT_EQ(limited.passes.size(), free.passes.size()) << name_of(key.first) << " B=" << key.second;
    EXPECT_EQ(limited.loop_bound, free.loop_bound) << name_of(key.first) << " B=" << key.second;
  }
  plan_params plain;
  plain.block = 512;
  plain.fast_search = false;
  plain.loop_limit = 256;
  EXPECT_THROW((void)build_plan(algorithm_kind::rlz, plain, {1u << 20, 0, false, 1u << 19}, max_width, false),
               unavailable);
}

} // namespace
} // namespace winnow::shader_era
