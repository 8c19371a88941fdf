// The concatenation probe (concat_probe.hpp): one concat pass over runs at every start and of every
// length, read back and compared word by word.
#include "winnow/shader_era/concat_probe.hpp"

#include <map>
#include <mutex>
#include <numeric>
#include <typeindex>

#include "winnow/shader_era/args.hpp"
#include "winnow/shader_era/layout.hpp"

namespace winnow::shader_era {
namespace {

/// The blocks' counts: before each run of length n starting at column x0, a filler block whose run
/// moves the start to x0 (0 words when it is there already). Runs are packed, as the frame's offsets
/// are (an exclusive scan of the counts), so the output is one stretch [0, Σ counts).
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

/// A plan of one concatenation of blocks with counts `cnt` into a B-wide output (a B-wide row per
/// block of compacted runs). The output is the plan's stream, so prepare() clears it.
plan concat_plan(std::uint32_t B, const std::vector<std::uint32_t>& cnt, concat_method method,
                 std::uint32_t max_width) {
  plan p;
  const auto blocks = static_cast<std::uint32_t>(cnt.size());
  const std::uint64_t total = std::accumulate(cnt.begin(), cnt.end(), std::uint64_t{0});
  const std::uint32_t rows = output_rows(static_cast<std::uint32_t>(total / B + 1), method);
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

} // namespace

std::optional<std::string> concat_mismatch(executor& x, const param_set& params, concat_method method, std::uint32_t B,
                                           const std::vector<std::uint32_t>& lengths) {
  const std::vector<std::uint32_t> cnt = block_counts(B, lengths);
  const plan p = concat_plan(B, cnt, method, x.max_width());
  const auto blocks = static_cast<std::uint32_t>(cnt.size());
  std::vector<std::uint32_t> off(blocks), runs(std::size_t{B} * blocks), want(p.layout.size(), 0),
      owner(p.layout.size(), 0);
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
  x.prepare(p, params, {std::vector<std::uint32_t>(p.layout.size(), 0), {}});
  x.write(p.offsets, off);
  x.write(p.counts, cnt);
  x.write(view{p.compacted}, runs);
  x.begin();
  x.record(0);
  x.end();
  const auto got = read_survivors(x, p, end); // what follows the survivors is no method's to write
  std::size_t bad = 0;
  std::string first;
  for (std::size_t t = 0; t < end; ++t)
    if (got[t] != want[t] && bad++ == 0) {
      const std::uint32_t b = owner[t];
      first = "the run of " + std::to_string(cnt[b]) + " from column " + std::to_string(off[b] % B) + ", word " +
              std::to_string(t - off[b]) + ": " + std::to_string(got[t]) + " instead of " + std::to_string(want[t]);
    }
  if (bad == 0) return std::nullopt;
  return std::to_string(bad) + " words wrong at B = " + std::to_string(B) + "; first: " + first;
}

concat_method probe_concat(executor& x, const param_set& params) {
  static std::mutex m;
  static std::map<std::type_index, concat_method> found;
  const std::lock_guard lock(m);
  const std::type_index type(typeid(x));
  if (const auto it = found.find(type); it != found.end()) return it->second;
  std::vector<std::uint32_t> all(64);
  std::iota(all.begin(), all.end(), 1u);
  const bool exact = !concat_mismatch(x, params, concat_method::lines, 64, all) &&
                     !concat_mismatch(x, params, concat_method::lines, 128, {1, 2, 31, 32, 33, 63, 64, 65, 127, 128});
  return found[type] = exact ? concat_method::lines : concat_method::rects;
}

} // namespace winnow::shader_era
