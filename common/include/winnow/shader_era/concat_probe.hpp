#pragma once
/// The block concatenation's exactness check, on the device: a plan of that one pass over blocks whose
/// runs start at every column and have every length, run through an API's executor and read back.
/// Rasterizers differ at a line's ends (a line from (x0, r + ½) to (x1, r + ½) must cover x0 … x1 − 1
/// and not x1), so `concat=auto` on the fragment paths probes this once per executor type and
/// process, and concatenates by lines only where they place every run exactly (rectangles
/// otherwise); the tests run the same check on every method of every API.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "winnow/algorithm.hpp"
#include "winnow/shader_era/executor.hpp"
#include "winnow/shader_era/plan.hpp"

namespace winnow::shader_era {

/// Runs `method` on B-wide blocks whose runs start at every column x0 < B with every length of
/// `lengths` (a filler block before each moves the start to x0; empty fillers test empty blocks).
/// Returns what went wrong (how many words, the first), or nothing when every word is in place.
/// The executor's state is replaced (prepare() on the probe's plan).
[[nodiscard]] std::optional<std::string> concat_mismatch(executor& x, const param_set& params, concat_method method,
                                                         std::uint32_t B, const std::vector<std::uint32_t>& lengths);

/// `lines` when lines place every run exactly at B = 64 (every length) and B = 128 (the lengths
/// around a row's quarters), `rects` otherwise. Probes `x` the first time an executor of its type
/// asks in this process; later calls return the first answer.
[[nodiscard]] concat_method probe_concat(executor& x, const param_set& params);

} // namespace winnow::shader_era
