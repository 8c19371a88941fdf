#pragma once
#include "winnow/registry.hpp"

namespace winnow::vk {

/// Adds the `vk` backend: vk/horn, vk/jj, vk/rlz, vk/bt (the shader-era algorithms as compute
/// passes, pass for pass as gl/) and vk/ballot (count / scan / move with subgroup ballots).
void register_backend(registry& r);

} // namespace winnow::vk
