#pragma once
/// The process's headless Vulkan device: an instance without surfaces, the physical device chosen
/// by choose_device (a discrete GPU first, then any other with a compute queue; lavapipe in CI),
/// one compute queue. With debug contexts on (WINNOW_DEBUG=1, --debug: the tests) the Khronos
/// validation layer (with synchronization validation) is on and every message it sends fails the
/// next check(): the run that caused it.
#include <vulkan/vulkan.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "winnow/device_clock.hpp"

namespace winnow::vk {

/// What choose_device needs to know about one physical device.
struct device_candidate {
  std::string name;
  VkPhysicalDeviceType type = VK_PHYSICAL_DEVICE_TYPE_OTHER;
  std::uint32_t api_version = 0;
  bool compute_queue = false;         ///< a queue family with VK_QUEUE_COMPUTE_BIT
  bool timestamps = false;            ///< that family has timestampValidBits > 0
  bool buffer_device_address = false; ///< Vulkan 1.2 bufferDeviceAddress (the passes use pointers)
};

struct device_choice {
  std::optional<std::size_t> chosen; ///< index into the candidates
  /// One line per candidate: "NAME (discrete GPU, Vulkan 1.4.312): taken — …" or "…: not taken — …".
  std::vector<std::string> reasons;
};

/// Requires Vulkan ≥ 1.2, a compute queue with timestamps and bufferDeviceAddress; among those
/// that qualify, prefers discrete GPU > integrated GPU > virtual GPU > CPU > other, then the first.
/// Example: {llvmpipe (CPU), "NVIDIA H200" (discrete)} → chosen 1; llvmpipe "not taken — a discrete GPU
/// (NVIDIA H200) is preferred".
[[nodiscard]] device_choice choose_device(const std::vector<device_candidate>& candidates);

/// "discrete GPU", "CPU", …
[[nodiscard]] std::string_view to_string(VkPhysicalDeviceType t);
/// "1.3.230"
[[nodiscard]] std::string version_string(std::uint32_t api_version);

struct device_properties {
  std::string name;                             ///< "NVIDIA H200", "llvmpipe (LLVM 15.0.6, 256 bits)"
  std::string driver;                           ///< "Vulkan 1.3.230, llvmpipe Mesa 22.3.6 (LLVM 15.0.6)"
  VkDriverId driver_id = VK_DRIVER_ID_MAX_ENUM; ///< for the driver quirks (docs/driver-quirks.md)
  std::uint32_t api_version = 0;
  VkPhysicalDeviceType type = VK_PHYSICAL_DEVICE_TYPE_OTHER;
  double timestamp_period = 1; ///< [ns] per tick
  std::uint32_t timestamp_valid_bits = 0;
  std::uint32_t subgroup_size = 0;    ///< the default size compute pipelines get
  bool subgroup_ballot = false;       ///< ballot + arithmetic in compute shaders
  bool subgroup_size_control = false; ///< a compute pipeline can require its subgroup size (1.3)
  bool vulkan_memory_model = false;   ///< the Vulkan memory model at device scope (acquire/release atomics)
  bool buffer_int64_atomics = false;  ///< shaderInt64 + shaderBufferInt64Atomics (vk/lookback state=packed)
  bool subgroup_clock = false;        ///< VK_KHR_shader_clock's shaderSubgroupClock (vk/lookback wait=pause)
  /// VK_KHR_pipeline_executable_properties, enabled only when WINNOW_VK_PIPELINE_STATS=1 asks for it
  bool pipeline_statistics = false;
  std::uint32_t max_group_count_x = 65535;
  std::uint32_t max_group_size_x = 128;
  std::uint32_t max_invocations = 128;
  std::uint32_t max_shared_bytes = 16384; ///< maxComputeSharedMemorySize
  std::uint64_t max_allocation = 0;       ///< [bytes] maxMemoryAllocationSize
  // The fragment path (vkfrag): the queue draws, and the frame's graphics shaders can run.
  bool graphics = false;             ///< the queue family has VK_QUEUE_GRAPHICS_BIT
  bool dynamic_rendering = false;    ///< Vulkan 1.3 dynamicRendering (no render pass objects)
  bool strict_lines = false;         ///< lines rasterize as rectangles (else possibly Bresenham)
  std::uint32_t max_image_width = 0; ///< maxImageDimension2D
  /// VK_EXT_conditional_rendering: draws and dispatches skipped by a word the device wrote (the
  /// adaptive algorithm's choice on the device)
  bool conditional_rendering = false;
  /// The device as NVML knows it (deviceUUID, which is NVML's UUID on NVIDIA's driver): the harness
  /// watches its clock. Empty on other vendors.
  device_identity identity;
};

class device {
public:
  /// Creates the device on first use. Throws unavailable with the reasons when there is none.
  static device& get();
  device(const device&) = delete;
  device& operator=(const device&) = delete;
  ~device();

  [[nodiscard]] VkDevice handle() const { return m_device; }
  [[nodiscard]] VkPhysicalDevice physical() const { return m_physical; }
  [[nodiscard]] VkQueue queue() const { return m_queue; }
  [[nodiscard]] std::uint32_t queue_family() const { return m_family; }
  [[nodiscard]] const device_properties& properties() const { return m_props; }
  [[nodiscard]] const device_choice& choice() const { return m_choice; }
  [[nodiscard]] bool validation() const { return m_validation; }

  /// Throws winnow::error "WHERE: N validation message(s): …" when the validation layer reported
  /// anything since the last check; clears them.
  void check(std::string_view where);
  /// A debug label `name` opened in `cmd` (VK_EXT_debug_utils), for capture tools and profilers; a
  /// no-op where the loader offers no debug utils. Every begin_label is closed by one end_label.
  void begin_label(VkCommandBuffer cmd, std::string_view name) const;
  void end_label(VkCommandBuffer cmd) const;
  /// vkCmdBeginConditionalRenderingEXT on the word at `offset` of `predicate`, and its end; only where
  /// properties().conditional_rendering (winnow::error otherwise).
  void begin_conditional(VkCommandBuffer cmd, VkBuffer predicate, VkDeviceSize offset) const;
  void end_conditional(VkCommandBuffer cmd) const;
  /// A memory type index with all of `want` among `type_bits`; nothing when there is none.
  [[nodiscard]] std::optional<std::uint32_t> memory_type(std::uint32_t type_bits, VkMemoryPropertyFlags want) const;

private:
  device();
  void create_instance();
  void choose_physical_device();
  void read_properties();
  void create_logical_device();
  VkInstance m_instance = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT m_messenger = VK_NULL_HANDLE;
  VkPhysicalDevice m_physical = VK_NULL_HANDLE;
  VkDevice m_device = VK_NULL_HANDLE;
  VkQueue m_queue = VK_NULL_HANDLE;
  std::uint32_t m_family = 0;
  bool m_validation = false;
  PFN_vkCmdBeginDebugUtilsLabelEXT m_begin_label = nullptr;
  PFN_vkCmdEndDebugUtilsLabelEXT m_end_label = nullptr;
  PFN_vkCmdBeginConditionalRenderingEXT m_begin_conditional = nullptr;
  PFN_vkCmdEndConditionalRenderingEXT m_end_conditional = nullptr;
  device_properties m_props;
  device_choice m_choice;
};

/// Why no Vulkan device can be used here (no loader/driver, no qualifying device, validation asked
/// for but the layer missing), or nothing. Probes once.
[[nodiscard]] std::optional<std::string> unavailable_reason();

/// The validation messages collected since the last check (for check() and tests).
[[nodiscard]] std::vector<std::string> take_validation_messages();

} // namespace winnow::vk
