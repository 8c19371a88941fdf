#include "winnow/vulkan/pipeline.hpp"

#include <iostream>
#include <map>
#include <memory>

#include "pipeline_statistics.hpp"
#include "spirv.hpp"
#include "winnow/vulkan/check.hpp"
#include "winnow/vulkan/device.hpp"

namespace winnow::vk {

std::string pipeline_key::str() const {
  std::string s = shader + "[";
  for (std::size_t i = 0; i < constants.size(); ++i) s += (i ? "," : "") + std::to_string(constants[i]);
  s += "]";
  if (required_subgroup_size) s += "/sg" + std::to_string(required_subgroup_size);
  return s;
}

pipeline::pipeline(const pipeline_key& key) : m_key(key) {
  device& d = device::get();
  const auto code = spirv(key.shader);
  if (code.empty()) throw error("winnow::vk::pipeline: no embedded shader '" + key.shader + "'");
  if (key.constants.empty())
    throw error("winnow::vk::pipeline: " + key.str() + ": constant 0 (local size) is required");
  VkShaderModuleCreateInfo mci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  mci.codeSize = code.size_bytes();
  mci.pCode = code.data();
  WINNOW_VK_CHECK(vkCreateShaderModule(d.handle(), &mci, nullptr, &m_module));

  const VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, max_push_bytes};
  VkPipelineLayoutCreateInfo lci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  lci.pushConstantRangeCount = 1;
  lci.pPushConstantRanges = &range;
  WINNOW_VK_CHECK(vkCreatePipelineLayout(d.handle(), &lci, nullptr, &m_layout));

  std::vector<VkSpecializationMapEntry> entries;
  for (std::uint32_t i = 0; i < key.constants.size(); ++i)
    entries.push_back({i, static_cast<std::uint32_t>(i * sizeof(std::uint32_t)), sizeof(std::uint32_t)});
  const VkSpecializationInfo spec{static_cast<std::uint32_t>(entries.size()), entries.data(),
                                  key.constants.size() * sizeof(std::uint32_t), key.constants.data()};
  VkPipelineShaderStageRequiredSubgroupSizeCreateInfo required{
      VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO};
  required.requiredSubgroupSize = key.required_subgroup_size;
  VkComputePipelineCreateInfo pci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  pci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
  pci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  pci.stage.module = m_module;
  pci.stage.pName = "main";
  pci.stage.pSpecializationInfo = &spec;
  if (key.required_subgroup_size) {
    if (!d.properties().subgroup_size_control)
      throw unavailable("winnow::vk::pipeline: " + key.str() + " needs subgroup size control, which " +
                        d.properties().name + " lacks");
    pci.stage.pNext = &required;
    pci.stage.flags = VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT;
  }
  pci.layout = m_layout;
  if (capture_pipeline_statistics()) pci.flags |= VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
  if (const VkResult r = vkCreateComputePipelines(d.handle(), VK_NULL_HANDLE, 1, &pci, nullptr, &m_pipeline);
      r != VK_SUCCESS)
    throw error("winnow::vk::pipeline: " + key.str() +
                " does not link: vkCreateComputePipelines: " + std::string(to_string(r)));
  d.check("winnow::vk::pipeline: " + key.str());
  std::cerr << pipeline_statistics(m_pipeline, "winnow::vk::pipeline: " + key.str());
}

const pipeline& pipeline::get(const pipeline_key& key) {
  // The device first: the cache, made after it, is destroyed before it.
  (void)device::get();
  static std::map<std::string, std::unique_ptr<pipeline>> cache;
  auto& p = cache[key.str()];
  if (!p) p = std::make_unique<pipeline>(key);
  return *p;
}

pipeline::~pipeline() {
  const VkDevice d = device::get().handle();
  vkDestroyPipeline(d, m_pipeline, nullptr);
  vkDestroyPipelineLayout(d, m_layout, nullptr);
  vkDestroyShaderModule(d, m_module, nullptr);
}

} // namespace winnow::vk
