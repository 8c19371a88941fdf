#pragma once
/// The adaptive algorithm (`gl/adaptive`, `vkfrag/adaptive`, `vk/adaptive`): the meta-algorithm
/// Moreira et al. name as future work. It chooses the algorithm and block size from the data, in
/// the timed run:
///   1. sample   one pass reads a few thousand short windows of the stream (sampling.hpp); a second
///               sums them per region; a third predicts each candidate's time from the regions'
///               densities and change rates and marks the fastest (choose.glsl) — all on the device;
///   2. run      the candidate marked runs its passes, already prepared. Where the device can skip
///               passes (`choice=device`: conditional rendering, on Vulkan and desktop OpenGL; the
///               default on both Vulkan paths), every candidate is recorded, each under its
///               word of the choice, and nothing returns to the host until the end; otherwise
///               (`choice=host`, the default on OpenGL where auto samples) the host
///               reads the choice back within the run (executor::read_midway: the `choose` phase spans
///               the round trip) and records only the chosen candidate. `choice=speculate` chooses
///               on the host too, but hands the device the first pass of a guess (the candidate
///               `choice=none` would run) in one submission with the read (executor::begin_read),
///               so that the device works through the round trip; the host keeps the guess unless
///               another is predicted faster by more than that pass.
///      Where no choice can pay (`choice=none`, or `auto` when it finds so), there is no sample: the
///      candidate that can lose least runs alone — the one whose worst regret (its time minus the
///      best's) over the model's training records, or over every density for the pass model, is
///      smallest. `auto` settles so when that candidate's mean regret, at this n, is below what
///      choosing costs for sure: the sample and choice passes priced by the pass model, and where
///      the host would choose, the round trip, measured once per process. The record's `notes`
///      carry what `auto` weighed: expected_regret_ns, choosing_ns and round_trip_ns at the case's n.
/// Every candidate's plan is built and prepared in prepare() (one merged plan on one executor), so
/// the run records only passes. The model (`model=`):
///   - PATH: the records of a bench of horn, jj, rlz and bt on this API and GPU (adaptive_model.hpp);
///   - pass (the default, needing no records): the four algorithms at blocks 32, 128, 512 and 2048,
///     each priced by its plan's passes and words moved (at the sampled density) with this
///     executor's own empty-pass time and copy bandwidth, measured once per process.
/// On a removal-list case the sample is taken after the first candidate's mark pass; another
/// candidate chosen marks its own copy of the stream (its time counts it).
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "winnow/registry.hpp"
#include "winnow/shader_era/executor.hpp"

namespace winnow::shader_era {

/// The registry entry of the adaptive algorithm on `api`, whose candidates concatenate by `concat`'s
/// first method unless their records say otherwise.
[[nodiscard]] algorithm_entry adaptive_entry(const std::string& api, const std::vector<concat_method>& concat,
                                             const std::function<std::unique_ptr<executor>()>& make,
                                             const std::vector<param_axis>& executor_axes = {});

} // namespace winnow::shader_era
