#pragma once
// What the driver says about a pipeline's compiled code (VK_KHR_pipeline_executable_properties), for
// WINNOW_VK_PIPELINE_STATS=1: the same kernel's registers, shared memory and spills beside its CUDA
// build (cuobjdump / ncu) tell whether a gap between the APIs is the compiler's.
#include <string>
#include <string_view>
#include <vulkan/vulkan.h>

namespace winnow::vk {

/// Whether pipelines are to be created with VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR (the
/// setting is on and the device offers the extension).
[[nodiscard]] bool capture_pipeline_statistics();

/// One line per executable of `pipeline` ("NAME: EXECUTABLE (subgroup S): statistic=value, …"); empty
/// when statistics are not captured.
[[nodiscard]] std::string pipeline_statistics(VkPipeline pipeline, std::string_view name);

} // namespace winnow::vk
