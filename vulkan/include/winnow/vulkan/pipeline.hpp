#pragma once
/// A compute pipeline from one embedded shader and its specialization constants. Shaders take their
/// arguments as push constants — buffer device addresses and a typed block per shader (the
/// shader-era passes: common/include/winnow/shader_era/args.hpp) — so no descriptor set exists anywhere.
#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>
#include <vector>

namespace winnow::vk {

/// The push-constant range of every pipeline: what Vulkan guarantees (maxPushConstantsSize ≥ 128).
inline constexpr std::uint32_t max_push_bytes = 128;

struct pipeline_key {
  std::string shader;                       ///< "horn_search": the module compiled from it
  std::vector<std::uint32_t> constants;     ///< specialization constants by id; id 0 is local_size_x
  std::uint32_t required_subgroup_size = 0; ///< 0: the driver's choice; else full subgroups of this size
  [[nodiscard]] std::string str() const;    ///< "horn_search[256,0]"
};

class pipeline {
public:
  /// The process's pipeline for `key`, created on first use and kept (destroyed before the device).
  /// Throws winnow::error naming the shader when it is not embedded or does not link.
  [[nodiscard]] static const pipeline& get(const pipeline_key& key);

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
