#pragma once
// The check of a gl result where it lies (algorithm::matches_on_device on OpenGL, where the context
// has compute shaders: 4.5 and ES 3.1, not 3.3): the verdict of winnow::verify on the host from three
// flags read back, by common/shaders/check.glsl, the check the Vulkan paths run, over the output and
// the stream textures as the passes left them. The case's expected stream, its input and the two
// bitmaps (the expected values', the removal list's) go to the device once, in the case's device
// copies, and serve every gl record of the case.
#include <cstdint>
#include <optional>

#include "winnow/algorithm.hpp"
#include "winnow/gl/objects.hpp"

namespace winnow::gl {

/// Where a run left its result: the first `count` words of `result`, row-major or in stacks of 8
/// rows (concat=stacks: `stacks_log2_width`, the rows' width log2), and the stream after the run.
struct texture_result {
  const texture& result;
  std::uint64_t count = 0;
  std::optional<std::uint32_t> stacks_log2_width;
  const texture& stream;
};

/// Whether `out` is what `expected` says; false where the count differs; nullopt where this context
/// has no compute shaders, or the device cannot tell (an unstable result whose expected values repeat
/// or are far larger than the case): the host checks then. A lost context is thrown.
[[nodiscard]] std::optional<bool> matches_on_device(const expected_output& expected, bool stable,
                                                    const texture_result& out);

} // namespace winnow::gl
