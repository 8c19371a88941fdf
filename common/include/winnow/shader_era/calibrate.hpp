#pragma once
/// The pass model's constants measured on any executor, with the executor's own timer: what one
/// pass costs when it does nothing (1 × 1) and the bandwidth of the copy pass at 4M and 16M words,
/// through exactly the code path the algorithms' passes take (copy_chain, frame.hpp).
#include <string>
#include <vector>

#include "winnow/registry.hpp"
#include "winnow/shader_era/executor.hpp"

namespace winnow::shader_era {

/// Mean time of one copy pass over side × side words, from `passes` ping-pong passes recorded in one
/// run after one untimed run of the same.
[[nodiscard]] double copy_pass_ns(executor& x, const param_set& params, std::uint32_t side, std::size_t passes);

/// empty_pass_ns, copy_pass_ns_4M/16M and copy_bytes_per_ns_4M/16M, each `how` naming `path`
/// ("Vulkan fragment pass").
[[nodiscard]] std::vector<calibration> pass_model_calibration(executor& x, const param_set& params, const std::string& path);

} // namespace winnow::shader_era
