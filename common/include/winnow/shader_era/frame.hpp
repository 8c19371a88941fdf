#pragma once
/// The frame of the shader-era algorithms (block-based compaction), API-free:
///   [mark]   removal-list cases: a zero written at every index of R into the stream
///   in-block the algorithm compacts each block of B consecutive elements: block b's v_b survivors
///            at [bB, bB + v_b) of the compacted array (Horn, Jumping Jack, RLZ, Binary-Tree)
///   count    one count per block, then their exclusive scan (rows, row totals, recursively)
///   concat   block b's survivors to [off_b, off_b + v_b) of the output
/// with each algorithm's proven loop bound and traffic model. build_plan() makes the passes; every
/// API runs them with its executor (executor.hpp). docs/algorithms.md explains each algorithm.
#include <string>
#include <vector>

#include "winnow/algorithm.hpp"
#include "winnow/shader_era/plan.hpp"
#include "winnow/shader_era/sampling.hpp"

namespace winnow::shader_era {

/// "horn", "jj", "rlz", "bt".
[[nodiscard]] std::string_view name_of(algorithm_kind a);
/// "lines", "rects", "copy", "search", "auto": the concat parameter's values.
[[nodiscard]] std::string_view method_name(concat_method m);

/// The registry's description of algorithm `a` on `api`, whose executor concatenates by the
/// methods `concat` (the first is the default) and takes the axes `executor_axes` of its own.
[[nodiscard]] algorithm_info info(std::string api, algorithm_kind a, const std::vector<concat_method>& concat,
                                  const std::vector<param_axis>& executor_axes = {});

/// The typed parameters from a resolved param_set of that info.
[[nodiscard]] plan_params plan_params_of(const param_set& p);

/// How every plan starts: the stream laid out as `pl.layout` (rows of `segment` words that belong
/// together) and, for a removal-list case (`pl.input`), the removal list and the mark pass that writes
/// a zero at each of its indices. build_plan() calls it; so does gl/geometry for a plan of its own.
void add_stream(plan& pl, std::uint32_t segment, std::uint32_t max_width);

/// The passes of algorithm `a` on case `c`, laid out no wider than `max_width` (the API's limit).
/// Throws winnow::unavailable when the case or the block does not fit the limit.
[[nodiscard]] plan build_plan(algorithm_kind a, const plan_params& p, const plan_case& c, std::uint32_t max_width,
                              bool loop_check);

/// Appends the adaptive algorithm's sample pass (sampling.hpp, common/shaders/sample.glsl) reading
/// `stream`, phase "sample"; returns the view of the words it writes.
view add_sample(plan& pl, view stream, const sample_shape& s, std::uint32_t max_width);

/// The sample's words summed in 16 parts per region (sample_sum.glsl's first level, phase "choose"):
/// word 16r + k is part k of region r (0 past the region's windows). Returns the parts' view.
view add_sample_parts(plan& pl, view sample, const sample_shape& s, std::uint32_t max_width);

/// The adaptive algorithm's choice on the device, after add_sample (phase "choose"): the sample's
/// words summed per region in two passes (add_sample_parts, then sample_sum.glsl's second level),
/// then one word per candidate, 1 for the candidate predicted fastest and 0 for the others (choose.glsl), from `model`
/// — the words choice_model_words() gives for the candidates' coefficients and this shape, which the caller writes
/// before the run.
struct choice_views {
  view model;
  view choice;
};
choice_views add_choice(plan& pl, view sample, const sample_shape& s, std::uint32_t candidates,
                        std::uint32_t max_width);

/// The pass models' calibration plan: `passes` copies (the frame's scan_hillis adding nothing) over a
/// side × side array, each reading what the one before wrote (ping-pong), as an algorithm's passes
/// do — independent passes would overlap and understate the cost. side: a power of two.
[[nodiscard]] plan copy_chain(std::uint32_t side, std::size_t passes);

/// The proven bound on the trips of `a`'s search loop for block B (docs/algorithms.md proves each).
[[nodiscard]] std::uint32_t loop_bound(algorithm_kind a, std::uint32_t block, bool fast_search);

} // namespace winnow::shader_era
