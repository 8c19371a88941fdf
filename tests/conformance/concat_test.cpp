// The concatenation on every plan API and by every method it offers (gl and vkfrag: lines and
// rectangles; vk: a copy and a search) writes block b's run to exactly [off_b, off_b + cnt_b) of the
// output: every start column and every length up to B, runs that cross into the next row included.
// Rasterizers differ at a line's ends (a line from (x0, r + ½) to (x1, r + ½) must cover x0 … x1 − 1
// and not x1), so this runs the real pass — concat.vert and concat.frag, or the compute shaders —
// through each API's executor on a plan of that one pass.
#include <gtest/gtest.h>

#include <numeric>

#include "winnow/backends.hpp"
#include "winnow/shader_era/executor.hpp"
#include "winnow/shader_era/frame.hpp"
#include "winnow/shader_era/layout.hpp"

namespace winnow {
namespace {

using namespace shader_era;

/// The blocks' counts for a concatenation whose runs start at every column x0 < B with every length
/// of `lengths`: before each such run, a filler block whose run moves the start to x0 (0 words when
/// it is there already: empty blocks are covered too). Runs are packed, as the frame's offsets are
/// (an exclusive scan of the counts), so the output is one stretch [0, Σ counts) that the copy and
/// the search must fill as well as lines and rectangles.
std::vector<std::uint32_t> block_counts(std::uint32_t B, const std::vector<std::uint32_t>& lengths) {
  std::vector<std::uint32_t> out;
  std::uint64_t end = 0;
  for (std::uint32_t x0 = 0; x0 < B; ++x0)
    for (const std::uint32_t n : lengths) {
      const auto filler = static_cast<std::uint32_t>((x0 + B - end % B) % B);
      out.push_back(filler);
      out.push_back(n);
      end += filler + n;
    }
  return out;
}

/// A plan of one concatenation of blocks with counts `cnt` into a B-wide output (a B × B layout per
/// block of compacted runs, one row each). The output is the plan's stream, so prepare() clears it.
plan concat_plan(std::uint32_t B, const std::vector<std::uint32_t>& cnt, concat_method method, std::uint32_t max_width) {
  plan p;
  const auto blocks = static_cast<std::uint32_t>(cnt.size());
  const std::uint64_t total = std::accumulate(cnt.begin(), cnt.end(), std::uint64_t{0});
  const auto rows = static_cast<std::uint32_t>(total / B + 1);
  const stream_layout per_block = layout_for(blocks, 1, max_width);
  auto add = [&](std::string name, std::uint32_t w, std::uint32_t h) {
    p.resources.push_back({std::move(name), w, h});
    return static_cast<resource_id>(p.resources.size() - 1);
  };
  p.offsets = view{add("offsets", per_block.width, per_block.height)};
  p.counts = view{add("counts", per_block.width, per_block.height)};
  p.compacted = add("compacted blocks", B, blocks);
  p.output = add("output", B, rows);
  p.stream = p.output;
  p.layout = {B, rows, log2_exact(B), std::uint64_t{B} * rows};
  p.blocks = blocks;
  p.params.block = B;
  p.params.concat = method;
  p.input.kept = total;
  pass ps;
  ps.phase = "concat";
  ps.name = "concatenation";
  ps.kind = pass_kind::concat;
  ps.shader = "concat";
  ps.inputs = {p.offsets, p.counts, view{p.compacted}};
  ps.output = view{p.output};
  ps.io.out_log2w = log2_exact(B);
  ps.io.out_height = rows;
  ps.io.extent = B * rows;
  ps.io.in_log2w[0] = ps.io.in_log2w[1] = per_block.log2_width;
  ps.io.in_log2w[2] = log2_exact(B);
  ps.args = words_of(concat_args{B, blocks, static_cast<u32>(method)});
  ps.items = blocks;
  ps.method = method;
  p.passes.push_back(ps);
  return p;
}

void check_runs(const algorithm_entry& e, const std::string& method, std::uint32_t B, const std::vector<std::uint32_t>& lengths) {
  const std::vector<std::uint32_t> cnt = block_counts(B, lengths);
  auto a = e.make();
  auto* pa = dynamic_cast<plan_algorithm*>(a.get());
  ASSERT_NE(pa, nullptr) << e.info.full_name();
  executor& x = pa->exec();
  const param_set params = resolve_params(e.info, {{"concat", method}, {"block", std::to_string(B)}});
  const plan p = concat_plan(B, cnt, plan_params_of(params).concat, x.max_width());
  const auto blocks = static_cast<std::uint32_t>(cnt.size());
  std::vector<std::uint32_t> off(blocks), runs(std::size_t{B} * blocks), want(p.layout.size(), 0), owner(p.layout.size(), 0);
  std::uint32_t end = 0;
  for (std::uint32_t b = 0; b < blocks; ++b) {
    off[b] = end;
    for (std::uint32_t k = 0; k < B; ++k) runs[std::size_t{b} * B + k] = b * B + k + 1;
    for (std::uint32_t k = 0; k < cnt[b]; ++k) {
      want[end + k] = b * B + k + 1;
      owner[end + k] = b;
    }
    end += cnt[b];
  }
  x.prepare(p, params, std::vector<std::uint32_t>(p.layout.size(), 0), {});
  x.write(p.offsets, off);
  x.write(p.counts, cnt);
  x.write(view{p.compacted}, runs);
  x.begin();
  x.record(0);
  x.end();
  const auto got = x.read(view{p.output}, 0, end); // what follows the survivors is no method's to write
  std::size_t bad = 0;
  std::string first;
  for (std::size_t t = 0; t < end; ++t)
    if (got[t] != want[t] && bad++ == 0) {
      const std::uint32_t b = owner[t];
      first = "the run of " + std::to_string(cnt[b]) + " from column " + std::to_string(off[b] % B) + ", word " +
              std::to_string(t - off[b]) + ": " + std::to_string(got[t]) + " instead of " + std::to_string(want[t]);
    }
  EXPECT_EQ(bad, 0u) << e.info.full_name() << " concat=" << method << " B=" << B << ": " << bad << " words wrong; first: " << first;
}

TEST(concatenation, every_method_of_every_api_places_every_start_and_length_exactly) {
  const registry& reg = all_backends();
  bool ran = false;
  for (const std::string_view api : plan_apis) {
    if (reg.unavailable_reason(api)) continue;
    const algorithm_entry& e = reg.find(std::string(api) + "/horn");
    for (const auto& axis : e.info.axes) {
      if (axis.key != "concat") continue;
      for (const auto& method : axis.choices()) {
        std::vector<std::uint32_t> all(64);
        std::iota(all.begin(), all.end(), 1u);
        check_runs(e, method, 64, all);
        check_runs(e, method, 128, {1, 2, 3, 4, 5, 31, 32, 33, 63, 64, 65, 95, 96, 97, 126, 127, 128});
        ran = true;
      }
    }
  }
  if (!ran) GTEST_SKIP() << "no plan API (gl, vk, vkfrag) can run here";
}

} // namespace
} // namespace winnow
