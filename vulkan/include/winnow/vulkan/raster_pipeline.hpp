#pragma once
/// A graphics pipeline of the fragment path: a vertex and a fragment shader of the frame
/// (common/shaders, compiled with glslc's VULKAN define, see graphics.glsl), drawing into one or two
/// R32_UINT colour attachments by dynamic rendering, with no vertex buffers, blending or depth, and
/// the viewport and scissor set per draw. Every one shares one layout: descriptor set 0 holds the
/// inputs as combined image samplers (bindings 0-2, and the 12 levels of a pyramid at binding 3),
/// and the pass's arguments are push constants seen by both stages.
#include <vulkan/vulkan.h>

#include <cstdint>
#include <string>
#include <vector>

namespace winnow::vk {

/// The descriptor set layout and pipeline layout every raster pipeline uses.
struct raster_layout {
  static constexpr std::uint32_t inputs = 3, levels = 12; ///< bindings 0-2, binding 3 [12]
  VkDescriptorSetLayout set = VK_NULL_HANDLE;
  VkPipelineLayout pipeline = VK_NULL_HANDLE;
  VkSampler sampler = VK_NULL_HANDLE; ///< nearest; texelFetch ignores it, but a combined sampler needs one

  /// The process's, created on first use (destroyed before the device).
  [[nodiscard]] static const raster_layout& get();
};

struct raster_key {
  std::string vertex, fragment; ///< embedded module names ("fullscreen_vert", "scan_hillis_frag")
  VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  std::uint32_t targets = 1;             ///< colour attachments (2 with the loop check's trips)
  std::vector<std::uint32_t> constants;  ///< the fragment shader's specialization constants by id
  [[nodiscard]] std::string str() const; ///< "fullscreen_vert+bt_traverse_frag[0,0,128,7]/triangles×1"
};

class raster_pipeline {
public:
  /// The process's pipeline for `key`, created on first use and kept. Throws winnow::error naming the
  /// shaders when one is not embedded or they do not link.
  [[nodiscard]] static const raster_pipeline& get(const raster_key& key);

  explicit raster_pipeline(const raster_key& key);
  raster_pipeline(const raster_pipeline&) = delete;
  raster_pipeline& operator=(const raster_pipeline&) = delete;
  ~raster_pipeline();
  [[nodiscard]] VkPipeline handle() const { return m_pipeline; }
  [[nodiscard]] const raster_key& key() const { return m_key; }

private:
  raster_key m_key;
  VkShaderModule m_vertex = VK_NULL_HANDLE, m_fragment = VK_NULL_HANDLE;
  VkPipeline m_pipeline = VK_NULL_HANDLE;
};

} // namespace winnow::vk
