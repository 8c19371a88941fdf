#include "pipeline_statistics.hpp"

#include <cstdio>
#include <vector>

#include "winnow/vulkan/check.hpp"
#include "winnow/vulkan/device.hpp"

namespace winnow::vk {
namespace {

std::string value_text(const VkPipelineExecutableStatisticKHR& s) {
  switch (s.format) {
  case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR: return s.value.b32 ? "true" : "false";
  case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR: return std::to_string(s.value.i64);
  case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR: return std::to_string(s.value.u64);
  case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR: {
    char text[32];
    std::snprintf(text, sizeof text, "%g", s.value.f64);
    return text;
  }
  default: return "?";
  }
}

} // namespace

bool capture_pipeline_statistics() { return device::get().properties().pipeline_statistics; }

std::string pipeline_statistics(VkPipeline pipeline, std::string_view name) {
  if (!capture_pipeline_statistics()) return {};
  const VkDevice d = device::get().handle();
  // Extension entry points come from the device (the loader exports only the core ones).
  const auto executables_of = reinterpret_cast<PFN_vkGetPipelineExecutablePropertiesKHR>(
      vkGetDeviceProcAddr(d, "vkGetPipelineExecutablePropertiesKHR"));
  const auto statistics_of = reinterpret_cast<PFN_vkGetPipelineExecutableStatisticsKHR>(
      vkGetDeviceProcAddr(d, "vkGetPipelineExecutableStatisticsKHR"));
  if (!executables_of || !statistics_of)
    throw error("winnow::vk::pipeline_statistics: the driver returns no entry points");

  VkPipelineInfoKHR info{VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR};
  info.pipeline = pipeline;
  std::uint32_t count = 0;
  WINNOW_VK_CHECK(executables_of(d, &info, &count, nullptr));
  std::vector<VkPipelineExecutablePropertiesKHR> executables(count,
                                                             {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR});
  WINNOW_VK_CHECK(executables_of(d, &info, &count, executables.data()));
  std::string text;
  for (std::uint32_t i = 0; i < count; ++i) {
    VkPipelineExecutableInfoKHR which{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR};
    which.pipeline = pipeline;
    which.executableIndex = i;
    std::uint32_t n = 0;
    WINNOW_VK_CHECK(statistics_of(d, &which, &n, nullptr));
    std::vector<VkPipelineExecutableStatisticKHR> stats(n, {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR});
    WINNOW_VK_CHECK(statistics_of(d, &which, &n, stats.data()));
    text += std::string(name) + ": " + executables[i].name + " (subgroup " +
            std::to_string(executables[i].subgroupSize) + "):";
    for (std::uint32_t s = 0; s < n; ++s)
      text += std::string(s ? "," : "") + " " + stats[s].name + "=" + value_text(stats[s]);
    text += "\n";
  }
  return text;
}

} // namespace winnow::vk
