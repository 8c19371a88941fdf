#pragma once
/// A compute pipeline from one embedded shader (shaders/<name>.comp) and its specialization
/// constants. Every shader takes the same push constants (pass_args): buffer device addresses and a
/// few integers, so no descriptor sets exist anywhere.
#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>
#include <vector>

namespace winnow::vk {

/// The push constants of every winnow shader (shaders/common.glsl declares the same block).
/// Addresses are VkDeviceAddress of storage buffers (0 when unused).
struct pass_args {
  VkDeviceAddress a = 0, b = 0, c = 0; ///< inputs
  VkDeviceAddress dst = 0;             ///< the output: an invocation writes only its own element(s)
  VkDeviceAddress trips = 0;           ///< loop trip counts (WINNOW_VK_LOOP_CHECK=1), else 0
  std::uint32_t n = 0;                 ///< invocations (or workgroups) that do work
  std::uint32_t k0 = 0, k1 = 0, k2 = 0; ///< per-pass integers, named in each shader
};
static_assert(sizeof(pass_args) == 56, "pass_args must match shaders/common.glsl");

struct pipeline_key {
  std::string shader;                  ///< "horn_search"
  std::vector<std::uint32_t> constants; ///< specialization constants by id; id 0 is local_size_x
  std::uint32_t required_subgroup_size = 0; ///< 0: the driver's choice; else full subgroups of this size
  [[nodiscard]] std::string str() const;    ///< "horn_search[256,512,9]"
};

class pipeline {
public:
  /// Throws winnow::error naming the shader when it is not embedded or does not link.
  explicit pipeline(const pipeline_key& key);
  pipeline(const pipeline&) = delete;
  pipeline& operator=(const pipeline&) = delete;
  ~pipeline();
  [[nodiscard]] VkPipeline handle() const { return m_pipeline; }
  [[nodiscard]] VkPipelineLayout layout() const { return m_layout; }
  [[nodiscard]] std::uint32_t local_size() const { return m_key.constants.at(0); }
  [[nodiscard]] const pipeline_key& key() const { return m_key; }

private:
  pipeline_key m_key;
  VkShaderModule m_module = VK_NULL_HANDLE;
  VkPipelineLayout m_layout = VK_NULL_HANDLE;
  VkPipeline m_pipeline = VK_NULL_HANDLE;
};

} // namespace winnow::vk
