#include "winnow/vulkan/raster_pipeline.hpp"

#include <iostream>
#include <map>
#include <memory>
#include <vector>

#include "pipeline_statistics.hpp"
#include "spirv.hpp"
#include "winnow/vulkan/check.hpp"
#include "winnow/vulkan/device.hpp"
#include "winnow/vulkan/pipeline.hpp"

namespace winnow::vk {
namespace {

VkShaderModule module_of(const std::string& name, const raster_key& key) {
  const auto code = spirv(name);
  if (code.empty()) throw error("winnow::vk::raster_pipeline: " + key.str() + ": no embedded shader '" + name + "'");
  VkShaderModuleCreateInfo mci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  mci.codeSize = code.size_bytes();
  mci.pCode = code.data();
  VkShaderModule m = VK_NULL_HANDLE;
  WINNOW_VK_CHECK(vkCreateShaderModule(device::get().handle(), &mci, nullptr, &m));
  return m;
}

/// Owns the layout objects for the process (a static destroyed before the device).
struct layout_owner {
  raster_layout layout;
  layout_owner() {
    const VkDevice d = device::get().handle();
    const VkDescriptorSetLayoutBinding bindings[] = {
        {0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT,
         nullptr},
        {1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT,
         nullptr},
        {2, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT,
         nullptr},
        {3, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, raster_layout::levels,
         VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, nullptr}};
    VkDescriptorSetLayoutCreateInfo sci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    sci.bindingCount = 4;
    sci.pBindings = bindings;
    WINNOW_VK_CHECK(vkCreateDescriptorSetLayout(d, &sci, nullptr, &layout.set));
    const VkPushConstantRange range{VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, max_push_bytes};
    VkPipelineLayoutCreateInfo lci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    lci.setLayoutCount = 1;
    lci.pSetLayouts = &layout.set;
    lci.pushConstantRangeCount = 1;
    lci.pPushConstantRanges = &range;
    WINNOW_VK_CHECK(vkCreatePipelineLayout(d, &lci, nullptr, &layout.pipeline));
    VkSamplerCreateInfo smp{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    smp.magFilter = smp.minFilter = VK_FILTER_NEAREST;
    smp.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
    smp.addressModeU = smp.addressModeV = smp.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    WINNOW_VK_CHECK(vkCreateSampler(d, &smp, nullptr, &layout.sampler));
  }
  ~layout_owner() {
    const VkDevice d = device::get().handle();
    vkDestroySampler(d, layout.sampler, nullptr);
    vkDestroyPipelineLayout(d, layout.pipeline, nullptr);
    vkDestroyDescriptorSetLayout(d, layout.set, nullptr);
  }
};

std::string_view topology_name(VkPrimitiveTopology t) {
  switch (t) {
  case VK_PRIMITIVE_TOPOLOGY_POINT_LIST: return "points";
  case VK_PRIMITIVE_TOPOLOGY_LINE_LIST: return "lines";
  case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST: return "triangles";
  default: return "other";
  }
}

} // namespace

const raster_layout& raster_layout::get() {
  (void)device::get(); // the device first: destroyed after the layout
  static const layout_owner owner;
  return owner.layout;
}

std::string raster_key::str() const {
  std::string s = vertex + "+" + fragment;
  if (!constants.empty()) {
    s += "[";
    for (std::size_t i = 0; i < constants.size(); ++i) s += (i ? "," : "") + std::to_string(constants[i]);
    s += "]";
  }
  return s + "/" + std::string(topology_name(topology)) + "×" + std::to_string(targets);
}

raster_pipeline::raster_pipeline(const raster_key& key) : m_key(key) {
  device& d = device::get();
  const raster_layout& layout = raster_layout::get();
  m_vertex = module_of(key.vertex, key);
  m_fragment = module_of(key.fragment, key);
  VkPipelineShaderStageCreateInfo stages[2] = {{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO},
                                               {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO}};
  stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
  stages[0].module = m_vertex;
  stages[0].pName = "main";
  stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
  stages[1].module = m_fragment;
  stages[1].pName = "main";
  std::vector<VkSpecializationMapEntry> entries;
  for (std::uint32_t i = 0; i < key.constants.size(); ++i)
    entries.push_back({i, static_cast<std::uint32_t>(i * sizeof(std::uint32_t)), sizeof(std::uint32_t)});
  const VkSpecializationInfo spec{static_cast<std::uint32_t>(entries.size()), entries.data(),
                                  key.constants.size() * sizeof(std::uint32_t), key.constants.data()};
  if (!key.constants.empty()) stages[1].pSpecializationInfo = &spec;
  VkPipelineVertexInputStateCreateInfo vertex_input{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  VkPipelineInputAssemblyStateCreateInfo assembly{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  assembly.topology = key.topology;
  VkPipelineViewportStateCreateInfo viewport{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
  viewport.viewportCount = 1;
  viewport.scissorCount = 1;
  VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  raster.polygonMode = VK_POLYGON_MODE_FILL;
  raster.cullMode = VK_CULL_MODE_NONE;
  raster.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
  raster.lineWidth = 1.0f;
  VkPipelineMultisampleStateCreateInfo multisample{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  const VkPipelineColorBlendAttachmentState no_blend{VK_FALSE,        VK_BLEND_FACTOR_ONE,     VK_BLEND_FACTOR_ZERO,
                                                     VK_BLEND_OP_ADD, VK_BLEND_FACTOR_ONE,     VK_BLEND_FACTOR_ZERO,
                                                     VK_BLEND_OP_ADD, VK_COLOR_COMPONENT_R_BIT};
  const std::vector<VkPipelineColorBlendAttachmentState> attachments(key.targets, no_blend);
  VkPipelineColorBlendStateCreateInfo blend{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  blend.attachmentCount = key.targets;
  blend.pAttachments = attachments.data();
  const VkDynamicState dynamic_states[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
  VkPipelineDynamicStateCreateInfo dynamic{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
  dynamic.dynamicStateCount = 2;
  dynamic.pDynamicStates = dynamic_states;
  const std::vector<VkFormat> formats(key.targets, VK_FORMAT_R32_UINT);
  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
  rendering.colorAttachmentCount = key.targets;
  rendering.pColorAttachmentFormats = formats.data();

  VkGraphicsPipelineCreateInfo gci{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, &rendering};
  gci.stageCount = 2;
  gci.pStages = stages;
  gci.pVertexInputState = &vertex_input;
  gci.pInputAssemblyState = &assembly;
  gci.pViewportState = &viewport;
  gci.pRasterizationState = &raster;
  gci.pMultisampleState = &multisample;
  gci.pColorBlendState = &blend;
  gci.pDynamicState = &dynamic;
  gci.layout = layout.pipeline;
  if (capture_pipeline_statistics()) gci.flags |= VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
  if (const VkResult r = vkCreateGraphicsPipelines(d.handle(), VK_NULL_HANDLE, 1, &gci, nullptr, &m_pipeline);
      r != VK_SUCCESS)
    throw error("winnow::vk::raster_pipeline: " + key.str() +
                " does not link: vkCreateGraphicsPipelines: " + std::string(to_string(r)));
  d.check("winnow::vk::raster_pipeline: " + key.str());
  std::cerr << pipeline_statistics(m_pipeline, "winnow::vk::raster_pipeline: " + key.str());
}

const raster_pipeline& raster_pipeline::get(const raster_key& key) {
  (void)raster_layout::get(); // the layout first: destroyed after the cache
  static std::map<std::string, std::unique_ptr<raster_pipeline>> cache;
  auto& p = cache[key.str()];
  if (!p) p = std::make_unique<raster_pipeline>(key);
  return *p;
}

raster_pipeline::~raster_pipeline() {
  const VkDevice d = device::get().handle();
  vkDestroyPipeline(d, m_pipeline, nullptr);
  vkDestroyShaderModule(d, m_fragment, nullptr);
  vkDestroyShaderModule(d, m_vertex, nullptr);
}

} // namespace winnow::vk
