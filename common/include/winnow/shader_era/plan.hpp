#pragma once
/// A plan: one shader-era algorithm run as data — the resources it needs and its passes in order,
/// each with its shader, inputs, output, argument block and traffic — built once by the API-free
/// frame (frame.hpp) and run by each API's executor (executor.hpp): GL fragment passes, Vulkan
/// compute dispatches. What the passes are, what they read, how many trips their loops may take and
/// what they move is decided here, once, for every API (amber's command list, run by each engine).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "winnow/algorithm.hpp"
#include "winnow/shader_era/args.hpp"
#include "winnow/shader_era/layout.hpp"

namespace winnow::shader_era {

using resource_id = std::uint32_t;

/// A W × H array of 32-bit words: a texture on GL, a row-major buffer on Vulkan. A pyramid holds the
/// levels 1 … `levels` of a reduction within rows: level p is (width >> p) × height (on GL a texture
/// each; on Vulkan one buffer, level p at word size − (size >> (p − 1))). A quad pyramid (the
/// HistoPyramid's) halves both sides: level p is (width >> p) × (height >> p), a texture each on the
/// graphics paths; Vulkan compute has none.
struct resource {
  std::string name;
  std::uint32_t width = 1, height = 1;
  std::uint32_t levels = 0;  ///< 0: a plain array
  std::uint32_t segment = 0; ///< the texels of a row that belong together (a block: B) at level 0; 0: none
  bool quad = false;         ///< a pyramid whose levels halve the height too

  [[nodiscard]] std::uint64_t size() const { return std::uint64_t{width} * height; }
  [[nodiscard]] std::uint32_t level_width(std::uint32_t level) const { return width >> level; }
  [[nodiscard]] std::uint32_t level_height(std::uint32_t level) const { return quad ? height >> level : height; }
};

/// The pyramid levels a pass of the graphics paths can bind (graphics.glsl's level samplers).
inline constexpr std::uint32_t max_bound_levels = 12;

/// What a pass reads or writes: a plain resource, one level (≥ 1) of a pyramid, or all its levels.
struct view {
  static constexpr std::uint32_t all_levels = ~0u;
  resource_id id = 0;
  std::uint32_t level = 0;
};

enum class pass_kind {
  gather, ///< every word of the output is computed from the inputs by common/shaders/<shader>.glsl
  mark,   ///< a zero written at every index the input (the removal list) holds: points, or a scatter
  concat, ///< each block's run of survivors written at its offset: lines, rectangles, a copy or a search
};

/// How the blocks are concatenated: by rasterization (lines, or 1-pixel rectangles, as Moreira et al.
/// draw them; or `stacks`, rectangles stack_rows high over an output laid out in stacks, see
/// stack_position) on the graphics pipeline, or by a workgroup's copy or an output element's search
/// without one. `automatic` ("auto") is a parameter value only: plan_algorithm resolves it to lines or
/// rects by the start-up probe (concat_probe.hpp) before a plan is built.
enum class concat_method : std::uint32_t { lines = 0, rects = 1, copy = 2, search = 3, automatic = 4, stacks = 5 };

[[nodiscard]] constexpr bool rasterized(concat_method m) {
  return m == concat_method::lines || m == concat_method::rects || m == concat_method::stacks;
}
[[nodiscard]] constexpr bool draws_triangles(concat_method m) {
  return m == concat_method::rects || m == concat_method::stacks;
}
/// Vertices of a rasterized concatenation of `blocks` blocks (concat.vert: two segments a block).
[[nodiscard]] constexpr std::uint64_t concat_vertices(concat_method m, std::uint64_t blocks) {
  return blocks * (draws_triangles(m) ? 12 : 4);
}

/// concat=stacks: the output's words in stacks of stack_rows (concat.vert's LOG2_STACK), one above the
/// other. Word t lies in stack t div 8, at column (t div 8) mod W of band (t div 8) div W (a band: 8
/// rows), row 8·band + t mod 8. A block's run is then a rectangle 8 rows high: one row high (lines,
/// rects) half of each 2 × 2 quad the rasterizer shades lies outside it, and a thin rectangle spans
/// many of its tiles (on an H100 the concatenation took 1.6-2.1× as long, docs/algorithms.md).
inline constexpr std::uint32_t log2_stack_rows = 3, stack_rows = 1u << log2_stack_rows;
/// The rows of an output that `m` concatenates into when `rows` hold its words: whole bands for stacks.
[[nodiscard]] constexpr std::uint32_t output_rows(std::uint32_t rows, concat_method m) {
  return m == concat_method::stacks ? (rows + stack_rows - 1) / stack_rows * stack_rows : rows;
}
/// Word t's index in the row-major array of width 2^log2_width (concat=stacks).
[[nodiscard]] constexpr std::uint64_t stack_position(std::uint64_t t, std::uint32_t log2_width) {
  const std::uint64_t stack = t >> log2_stack_rows, band = stack >> log2_width;
  return (((band << log2_stack_rows) + (t & (stack_rows - 1))) << log2_width) |
         (stack & ((std::uint64_t{1} << log2_width) - 1));
}

struct pass {
  std::string phase; ///< the phase its time counts to: "scan"
  std::string name;  ///< what a trace calls it: "hillis +4"
  pass_kind kind = pass_kind::gather;
  std::string shader;       ///< "scan_hillis"
  std::vector<view> inputs; ///< at most 3
  view output;
  io_args io;
  std::vector<std::uint32_t> args; ///< the shader's own fields (args.hpp), as words
  std::uint32_t constants = 0;     ///< args[0, constants) are compiled in where the API can (args.hpp)
  double reads = 1;                ///< distinct input words per output word (gather), for the traffic model
  bool loop = false;               ///< a search loop: writes its trips when the loop check is on
  /// A gather whose every word reads many input words (the adaptive algorithm's sample): one word per
  /// invocation even where Vulkan compute writes four (`items=4`), which would leave a quarter as many
  /// invocations, each walking four windows in turn.
  bool one_word = false;
  resource_id trips = 0;                       ///< where (the plan's loop trips, or a merged plan's part's)
  std::uint64_t items = 0;                     ///< mark: indices marked; concat: blocks
  concat_method method = concat_method::lines; ///< concat only
};

/// The algorithms the frame runs.
enum class algorithm_kind { horn, jj, rlz, bt, histopyramid };
enum class scan_kind { hillis, blelloch };

/// Typed parameters of a shader-era algorithm, from its param_set (the one parse).
struct plan_params {
  std::uint32_t block = 128;
  scan_kind scan = scan_kind::hillis;
  concat_method concat = concat_method::lines;
  bool runs_tree = false;  ///< RLZ: run lengths by up/down-sweep instead of recursive doubling
  bool fast_search = true; ///< RLZ: two hops per loop trip
  bool horn_steps = false; ///< Horn: one binary step per pass (Horn 2005) instead of one looping pass
  /// Refuse a plan whose search loop may need more trips than this (0: no limit). 256 emulates the
  /// fragment loops of the GeForce 7300 Go that Moreira et al. measured on.
  std::uint32_t loop_limit = 0;
};

/// The case as the frame needs it.
struct plan_case {
  std::uint64_t n = 0;        ///< elements
  std::uint64_t removals = 0; ///< |R| when the case is a removal list (then a mark pass runs first)
  bool removal_list = false;
  std::uint64_t kept = 0; ///< survivors (the concatenation's traffic)
};

struct plan {
  algorithm_kind algorithm = algorithm_kind::horn;
  plan_params params;
  plan_case input;
  stream_layout layout; ///< the stream's
  std::vector<resource> resources;
  std::vector<pass> passes;
  resource_id stream = 0;    ///< the input (marked in place by the mark pass)
  resource_id removals = 0;  ///< valid when a mark pass runs
  resource_id compacted = 0; ///< every block compacted in place of a copy
  resource_id output = 0;    ///< the result: survivors at [0, kept)
  view counts, offsets;      ///< per block: count, and the exclusive scan of the counts
  std::uint64_t blocks = 0;
  /// Where one word holds the survivors' count, for a plan without blocks (the HistoPyramid's apex);
  /// else the count is offsets[blocks − 1] + counts[blocks − 1].
  std::optional<view> total;
  bool loop_check = false;
  resource_id trips = 0;        ///< valid with loop_check: the loop passes' trip counts
  std::uint32_t loop_bound = 0; ///< the proven bound of the search loop (trips)

  [[nodiscard]] bool marks() const { return input.removal_list && input.removals > 0; }
  /// The output is laid out in stacks (stack_position): its last pass is a concatenation by stacks.
  [[nodiscard]] bool output_in_stacks() const {
    return !passes.empty() && passes.back().kind == pass_kind::concat && passes.back().method == concat_method::stacks;
  }
  /// Where output_in_stacks(): the output's width, log2, which stack_position takes (the layout's: a
  /// merged plan's part has its ids, not its resources); nullopt: survivor t lies at word t.
  [[nodiscard]] std::optional<std::uint32_t> stacks_log2_width() const {
    return output_in_stacks() ? std::optional<std::uint32_t>(layout.log2_width) : std::nullopt;
  }
  /// The output's first words that hold its first `count` survivors: `count`, or in stacks the
  /// whole bands that do (stack_position(count − 1) lies in the last one).
  [[nodiscard]] std::uint64_t output_words(std::uint64_t count) const {
    if (!output_in_stacks() || count == 0) return count;
    const std::uint32_t band_log2 = layout.log2_width + log2_stack_rows;
    return ((stack_position(count - 1, layout.log2_width) >> band_log2) + 1) << band_log2;
  }
  /// Words read and written by the plan's model, and its passes (records' bytes and launches).
  [[nodiscard]] traffic traffic_model() const;
  /// The words one pass writes (gather: its output level; mark: |R|; concat: the survivors).
  [[nodiscard]] std::uint64_t written(const pass& p) const;
  /// The extent (width, height) of a view's array (a level's own width).
  [[nodiscard]] std::uint32_t width_of(const view& v) const;
  [[nodiscard]] std::uint32_t height_of(const view& v) const;
};

} // namespace winnow::shader_era
