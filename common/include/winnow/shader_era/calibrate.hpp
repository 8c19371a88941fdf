#pragma once
/// The pass model's constants measured on any executor, with the executor's own timer: what one
/// pass costs when it does nothing (1 × 1), what a read back to the host within a run costs, and the
/// bandwidth of the copy pass at 4M and 16M words (4M only on a software device), through exactly the code path the
/// algorithms' passes take (copy_chain, frame.hpp).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "winnow/registry.hpp"
#include "winnow/shader_era/executor.hpp"

namespace winnow::shader_era {

/// Mean time of one copy pass over side × side words, from `passes` ping-pong passes recorded in one
/// run after one untimed run of the same.
[[nodiscard]] double copy_pass_ns(executor& x, const param_set& params, std::uint32_t side, std::size_t passes);

/// What one read back to the host within a run costs the device [ns]: the median over `runs` of
/// (two 1 × 1 copy passes with a read_midway between them) minus (the two without it), each timed on
/// its own. The host's choice (the adaptive algorithm's choice=host) waits so within its run.
[[nodiscard]] double round_trip_ns(executor& x, const param_set& params, std::size_t runs);

/// The copy pass's sizes (sides of a square, in words) and passes per size: 4M and 16M words, 20 passes
/// each, on a GPU. On a software device (llvmpipe, lavapipe) 4M only, 4 passes: there the pass model
/// needs a shape, not a bandwidth anyone measures against, and the 16M points took most of each API's
/// calibration on a 2-core machine (over 10 s of gl's, 15 s of vk's).
struct copy_sweep {
  std::vector<std::uint32_t> sides;
  std::size_t passes = 0;
};
[[nodiscard]] copy_sweep copy_sweep_for(bool software_device);

/// empty_pass_ns, round_trip_ns, copy_pass_ns_<size> and copy_bytes_per_ns_<size> for each size of
/// `sweep`, each `how` naming `path` ("Vulkan fragment pass").
[[nodiscard]] std::vector<calibration> pass_model_calibration(executor& x, const param_set& params,
                                                              const std::string& path, const copy_sweep& sweep);

} // namespace winnow::shader_era
