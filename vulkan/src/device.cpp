#include "winnow/vulkan/device.hpp"

#include <algorithm>
#include <cstring>
#include <iostream>
#include <mutex>
#include <utility>

#include "winnow/vulkan/check.hpp"
#include "winnow/settings.hpp"

namespace winnow::vk {
namespace {

constexpr const char* validation_layer = "VK_LAYER_KHRONOS_validation";

std::mutex g_messages_mutex;
std::vector<std::string> g_messages;

VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                          VkDebugUtilsMessageTypeFlagsEXT type,
                                          const VkDebugUtilsMessengerCallbackDataEXT* data, void*) {
  // Warnings and errors fail the run; info and verbose are chatter (loader, layer settings). The
  // loader's general warnings are chatter too: it warns of every layer a capture tool or the user
  // adds through VK_INSTANCE_LAYERS, and a run under RenderDoc must not fail for that.
  if (severity < VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) return VK_FALSE;
  const bool loader = data && data->pMessageIdName && std::strcmp(data->pMessageIdName, "Loader Message") == 0;
  if (loader && type == VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT &&
      severity < VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)
    return VK_FALSE;
  const std::lock_guard lock(g_messages_mutex);
  g_messages.emplace_back(data && data->pMessage ? data->pMessage : "(no message text)");
  return VK_FALSE;
}

/// The family index of the best queue family with compute: with timestamps and graphics (the
/// fragment path runs on the same queue), else with timestamps, else any.
std::optional<std::uint32_t> compute_family(VkPhysicalDevice pd, bool* timestamps) {
  std::uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(pd, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(pd, &count, families.data());
  std::optional<std::uint32_t> best;
  int best_score = -1;
  for (std::uint32_t i = 0; i < count; ++i) {
    if (!(families[i].queueFlags & VK_QUEUE_COMPUTE_BIT)) continue;
    const int score =
        (families[i].timestampValidBits > 0 ? 2 : 0) + ((families[i].queueFlags & VK_QUEUE_GRAPHICS_BIT) ? 1 : 0);
    if (score > best_score) {
      best = i;
      best_score = score;
    }
  }
  *timestamps = best_score >= 2;
  return best;
}

bool has_device_extension(VkPhysicalDevice pd, const char* name) {
  std::uint32_t count = 0;
  vkEnumerateDeviceExtensionProperties(pd, nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> offered(count);
  vkEnumerateDeviceExtensionProperties(pd, nullptr, &count, offered.data());
  return std::any_of(offered.begin(), offered.end(),
                     [&](const VkExtensionProperties& e) { return std::strcmp(e.extensionName, name) == 0; });
}

struct probe_result {
  std::unique_ptr<device> dev;
  std::optional<std::string> reason;
  bool usage = false; // the reason is a bad setting (an environment variable), not the machine
};

} // namespace

device::device() {
  m_validation = debug_enabled();
  create_instance();
  choose_physical_device();
  read_properties();
  create_logical_device();
  check("winnow::vk::device: creation");
}

void device::create_instance() {
  std::uint32_t instance_version = 0;
  if (vkEnumerateInstanceVersion(&instance_version) != VK_SUCCESS || instance_version < VK_API_VERSION_1_2)
    throw unavailable("winnow::vk::device: the Vulkan loader offers " + version_string(instance_version) + " < 1.2");

  std::vector<const char*> layers, extensions;
  // Debug utils (implemented by the loader) for the phase labels, whether or not validation is on.
  {
    std::uint32_t count = 0;
    vkEnumerateInstanceExtensionProperties(nullptr, &count, nullptr);
    std::vector<VkExtensionProperties> offered(count);
    vkEnumerateInstanceExtensionProperties(nullptr, &count, offered.data());
    if (std::any_of(offered.begin(), offered.end(), [](const VkExtensionProperties& e) {
          return std::strcmp(e.extensionName, VK_EXT_DEBUG_UTILS_EXTENSION_NAME) == 0;
        }))
      extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
  }
  bool validation_features = false;
  if (m_validation) {
    std::uint32_t count = 0;
    vkEnumerateInstanceLayerProperties(&count, nullptr);
    std::vector<VkLayerProperties> available(count);
    vkEnumerateInstanceLayerProperties(&count, available.data());
    if (std::none_of(available.begin(), available.end(),
                     [](const VkLayerProperties& l) { return std::strcmp(l.layerName, validation_layer) == 0; }))
      throw unavailable(std::string("winnow::vk::device: debug contexts are on (WINNOW_DEBUG=1 or --debug) but the "
                                    "Khronos validation layer (") +
                        validation_layer + ") is not installed");
    layers.push_back(validation_layer);
    if (extensions.empty()) extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME); // the layer offers it
    vkEnumerateInstanceExtensionProperties(validation_layer, &count, nullptr);
    std::vector<VkExtensionProperties> layer_ext(count);
    vkEnumerateInstanceExtensionProperties(validation_layer, &count, layer_ext.data());
    validation_features = std::any_of(layer_ext.begin(), layer_ext.end(), [](const VkExtensionProperties& e) {
      return std::strcmp(e.extensionName, VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME) == 0;
    });
    if (validation_features) extensions.push_back(VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME);
  }

  VkDebugUtilsMessengerCreateInfoEXT messenger_info{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  messenger_info.messageSeverity =
      VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  messenger_info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                               VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                               VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  messenger_info.pfnUserCallback = on_message;
  // Synchronization validation catches a missing barrier between passes, which plain validation cannot.
  const VkValidationFeatureEnableEXT enables[] = {VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
  VkValidationFeaturesEXT features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
  features.enabledValidationFeatureCount = 1;
  features.pEnabledValidationFeatures = enables;
  if (validation_features) features.pNext = &messenger_info;

  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "winnow";
  app.pEngineName = "winnow";
  app.apiVersion = instance_version >= VK_API_VERSION_1_3 ? VK_API_VERSION_1_3 : VK_API_VERSION_1_2;
  VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ici.pNext = m_validation ? (validation_features ? static_cast<const void*>(&features) : &messenger_info) : nullptr;
  ici.pApplicationInfo = &app;
  ici.enabledLayerCount = static_cast<std::uint32_t>(layers.size());
  ici.ppEnabledLayerNames = layers.data();
  ici.enabledExtensionCount = static_cast<std::uint32_t>(extensions.size());
  ici.ppEnabledExtensionNames = extensions.data();
  if (const VkResult r = vkCreateInstance(&ici, nullptr, &m_instance); r != VK_SUCCESS)
    throw unavailable("winnow::vk::device: vkCreateInstance failed: " + std::string(to_string(r)));
  if (std::find_if(extensions.begin(), extensions.end(), [](const char* e) {
        return std::strcmp(e, VK_EXT_DEBUG_UTILS_EXTENSION_NAME) == 0;
      }) != extensions.end()) {
    m_begin_label = reinterpret_cast<PFN_vkCmdBeginDebugUtilsLabelEXT>(
        vkGetInstanceProcAddr(m_instance, "vkCmdBeginDebugUtilsLabelEXT"));
    m_end_label = reinterpret_cast<PFN_vkCmdEndDebugUtilsLabelEXT>(
        vkGetInstanceProcAddr(m_instance, "vkCmdEndDebugUtilsLabelEXT"));
    if (!m_begin_label || !m_end_label) m_begin_label = nullptr, m_end_label = nullptr;
  }
  if (m_validation) {
    auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(m_instance, "vkCreateDebugUtilsMessengerEXT"));
    if (!create) throw unavailable("winnow::vk::device: the validation layer offers no VK_EXT_debug_utils");
    WINNOW_VK_CHECK(create(m_instance, &messenger_info, nullptr, &m_messenger));
  }
}

void device::choose_physical_device() {
  std::uint32_t count = 0;
  vkEnumeratePhysicalDevices(m_instance, &count, nullptr);
  std::vector<VkPhysicalDevice> physical(count);
  vkEnumeratePhysicalDevices(m_instance, &count, physical.data());
  std::vector<device_candidate> candidates;
  for (VkPhysicalDevice pd : physical) {
    VkPhysicalDeviceProperties p{};
    vkGetPhysicalDeviceProperties(pd, &p);
    device_candidate c;
    c.name = p.deviceName;
    c.type = p.deviceType;
    c.api_version = p.apiVersion;
    c.compute_queue = compute_family(pd, &c.timestamps).has_value();
    if (p.apiVersion >= VK_API_VERSION_1_2) {
      VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
      VkPhysicalDeviceFeatures2 f{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &f12};
      vkGetPhysicalDeviceFeatures2(pd, &f);
      c.buffer_device_address = f12.bufferDeviceAddress;
    }
    candidates.push_back(std::move(c));
  }
  // WINNOW_DEVICE=K (set by `winnow reproduce --devices`): the K-th physical device alone, so that
  // processes sharing a host each take their own GPU.
  if (const auto only = env_integer("WINNOW_DEVICE", 0, 1023)) {
    const auto k = static_cast<std::size_t>(*only);
    if (k >= physical.size())
      throw unavailable("winnow::vk::device: WINNOW_DEVICE=" + std::to_string(k) + " but the loader found " +
                        std::to_string(physical.size()) + " devices");
    physical = {physical[k]};
    candidates = {candidates[k]};
  }
  m_choice = choose_device(candidates);
  if (!m_choice.chosen) {
    std::string why = "winnow::vk::device: no usable Vulkan device";
    if (candidates.empty()) why += " (the loader found no driver)";
    for (const auto& line : m_choice.reasons) why += "; " + line;
    throw unavailable(why);
  }
  m_physical = physical[*m_choice.chosen];
  bool timestamps = false;
  m_family = *compute_family(m_physical, &timestamps);
}

void device::read_properties() {
  VkPhysicalDeviceSubgroupSizeControlProperties size_control{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES};
  VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  VkPhysicalDeviceDriverProperties driver{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES, &subgroup};
  VkPhysicalDeviceMaintenance3Properties maintenance3{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES,
                                                      &driver};
  VkPhysicalDeviceIDProperties ids{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES, &maintenance3};
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &ids};
  VkPhysicalDeviceProperties basic{};
  vkGetPhysicalDeviceProperties(m_physical, &basic);
  const bool v13 = basic.apiVersion >= VK_API_VERSION_1_3;
  if (v13) subgroup.pNext = &size_control;
  vkGetPhysicalDeviceProperties2(m_physical, &props);
  std::uint32_t family_count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(m_physical, &family_count, nullptr);
  std::vector<VkQueueFamilyProperties> families(family_count);
  vkGetPhysicalDeviceQueueFamilyProperties(m_physical, &family_count, families.data());

  VkPhysicalDeviceVulkan13Features f13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, v13 ? &f13 : nullptr};
  VkPhysicalDeviceFeatures2 f{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &f12};
  vkGetPhysicalDeviceFeatures2(m_physical, &f);

  const auto& limits = props.properties.limits;
  m_props.name = props.properties.deviceName;
  m_props.api_version = props.properties.apiVersion;
  m_props.type = props.properties.deviceType;
  m_props.driver_id = driver.driverID;
  m_props.driver =
      "Vulkan " + version_string(props.properties.apiVersion) + ", " + driver.driverName + " " + driver.driverInfo;
  m_props.timestamp_period = static_cast<double>(limits.timestampPeriod);
  m_props.timestamp_valid_bits = families[m_family].timestampValidBits;
  m_props.subgroup_size = subgroup.subgroupSize;
  m_props.subgroup_ballot = (subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) &&
                            (subgroup.supportedOperations & VK_SUBGROUP_FEATURE_BALLOT_BIT) &&
                            (subgroup.supportedOperations & VK_SUBGROUP_FEATURE_ARITHMETIC_BIT);
  m_props.subgroup_size_control = v13 && f13.subgroupSizeControl && f13.computeFullSubgroups &&
                                  (size_control.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT);
  m_props.vulkan_memory_model = f12.vulkanMemoryModel && f12.vulkanMemoryModelDeviceScope;
  m_props.buffer_int64_atomics = f.features.shaderInt64 && f12.shaderBufferInt64Atomics;
  if (has_device_extension(m_physical, VK_KHR_SHADER_CLOCK_EXTENSION_NAME)) {
    VkPhysicalDeviceShaderClockFeaturesKHR clock{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CLOCK_FEATURES_KHR};
    VkPhysicalDeviceFeatures2 fc{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &clock};
    vkGetPhysicalDeviceFeatures2(m_physical, &fc);
    m_props.subgroup_clock = clock.shaderSubgroupClock;
  }
  if (env_flag("WINNOW_VK_PIPELINE_STATS").value_or(false)) {
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR executable{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
    VkPhysicalDeviceFeatures2 fx{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &executable};
    if (has_device_extension(m_physical, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME))
      vkGetPhysicalDeviceFeatures2(m_physical, &fx);
    m_props.pipeline_statistics = executable.pipelineExecutableInfo;
    if (!m_props.pipeline_statistics)
      std::cerr << "winnow::vk::device: WINNOW_VK_PIPELINE_STATS=1, but " << m_props.name
                << " offers no VK_KHR_pipeline_executable_properties: no statistics will be printed\n";
  }
  m_props.max_group_count_x = limits.maxComputeWorkGroupCount[0];
  m_props.max_group_size_x = limits.maxComputeWorkGroupSize[0];
  m_props.max_invocations = limits.maxComputeWorkGroupInvocations;
  m_props.max_shared_bytes = limits.maxComputeSharedMemorySize;
  m_props.max_allocation = maintenance3.maxMemoryAllocationSize;
  m_props.graphics = (families[m_family].queueFlags & VK_QUEUE_GRAPHICS_BIT) != 0;
  m_props.dynamic_rendering = v13 && f13.dynamicRendering;
  m_props.strict_lines = limits.strictLines;
  m_props.max_image_width = limits.maxImageDimension2D;
  // NVIDIA's Vulkan deviceUUID is the GPU's UUID, as NVML and CUDA give it; other vendors' say nothing to NVML.
  constexpr std::uint32_t nvidia_vendor = 0x10de;
  if (props.properties.vendorID == nvidia_vendor) m_props.identity.uuid = nvidia_uuid(ids.deviceUUID);
  if (has_device_extension(m_physical, VK_EXT_CONDITIONAL_RENDERING_EXTENSION_NAME)) {
    VkPhysicalDeviceConditionalRenderingFeaturesEXT conditional{
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CONDITIONAL_RENDERING_FEATURES_EXT};
    VkPhysicalDeviceFeatures2 fc{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &conditional};
    vkGetPhysicalDeviceFeatures2(m_physical, &fc);
    m_props.conditional_rendering = conditional.conditionalRendering;
  }
}

void device::create_logical_device() {
  // Only what the passes use: device addresses, the memory model and 64-bit atomics (single-pass
  // look-back), subgroup size control (vk/ballot, vk/lookback), and dynamic rendering (the fragment
  // path), the subgroup clock (vk/lookback's pauses); the pipelines' statistics only when asked for
  // (WINNOW_VK_PIPELINE_STATS); conditional rendering where offered (the adaptive algorithm's choice
  // on the device).
  VkPhysicalDeviceVulkan13Features e13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  e13.subgroupSizeControl = m_props.subgroup_size_control;
  e13.computeFullSubgroups = m_props.subgroup_size_control;
  e13.dynamicRendering = m_props.dynamic_rendering;
  const bool v13 = m_props.api_version >= VK_API_VERSION_1_3;
  VkPhysicalDeviceVulkan12Features e12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, v13 ? &e13 : nullptr};
  e12.bufferDeviceAddress = VK_TRUE;
  e12.vulkanMemoryModel = m_props.vulkan_memory_model;
  e12.vulkanMemoryModelDeviceScope = m_props.vulkan_memory_model;
  e12.shaderBufferInt64Atomics = m_props.buffer_int64_atomics;
  // Each optional feature: its struct chained in front of the 1.2 features, its extension named.
  std::vector<const char*> extensions;
  const auto enable = [&](auto& feature, const char* extension) {
    feature.pNext = e12.pNext;
    e12.pNext = &feature;
    extensions.push_back(extension);
  };
  VkPhysicalDeviceShaderClockFeaturesKHR clock{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CLOCK_FEATURES_KHR};
  clock.shaderSubgroupClock = VK_TRUE;
  if (m_props.subgroup_clock) enable(clock, VK_KHR_SHADER_CLOCK_EXTENSION_NAME);
  VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR executable{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR};
  executable.pipelineExecutableInfo = VK_TRUE;
  if (m_props.pipeline_statistics) enable(executable, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
  VkPhysicalDeviceConditionalRenderingFeaturesEXT conditional{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CONDITIONAL_RENDERING_FEATURES_EXT};
  conditional.conditionalRendering = VK_TRUE;
  if (m_props.conditional_rendering) enable(conditional, VK_EXT_CONDITIONAL_RENDERING_EXTENSION_NAME);
  VkPhysicalDeviceFeatures core{};
  core.shaderInt64 = m_props.buffer_int64_atomics;
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  qci.queueFamilyIndex = m_family;
  qci.queueCount = 1;
  qci.pQueuePriorities = &priority;
  VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &e12};
  dci.queueCreateInfoCount = 1;
  dci.pQueueCreateInfos = &qci;
  dci.pEnabledFeatures = &core;
  dci.enabledExtensionCount = static_cast<std::uint32_t>(extensions.size());
  dci.ppEnabledExtensionNames = extensions.data();
  WINNOW_VK_CHECK(vkCreateDevice(m_physical, &dci, nullptr, &m_device));
  vkGetDeviceQueue(m_device, m_family, 0, &m_queue);
  if (m_props.conditional_rendering) {
    m_begin_conditional = reinterpret_cast<PFN_vkCmdBeginConditionalRenderingEXT>(
        vkGetDeviceProcAddr(m_device, "vkCmdBeginConditionalRenderingEXT"));
    m_end_conditional = reinterpret_cast<PFN_vkCmdEndConditionalRenderingEXT>(
        vkGetDeviceProcAddr(m_device, "vkCmdEndConditionalRenderingEXT"));
    if (!m_begin_conditional || !m_end_conditional) m_props.conditional_rendering = false;
  }
}

device::~device() {
  if (m_device) vkDeviceWaitIdle(m_device);
  if (m_device) vkDestroyDevice(m_device, nullptr);
  if (m_messenger) {
    auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(m_instance, "vkDestroyDebugUtilsMessengerEXT"));
    if (destroy) destroy(m_instance, m_messenger, nullptr);
  }
  if (m_instance) vkDestroyInstance(m_instance, nullptr);
  // Nothing can throw here: what the layer said at teardown (leaked objects) goes to stderr.
  for (const auto& m : take_validation_messages()) std::cerr << "winnow::vk::device: at teardown: " << m << "\n";
}

device& device::get() {
  // Created once; a failure is remembered so every caller gets the same reason.
  static probe_result p = [] {
    probe_result r;
    try {
      r.dev.reset(new device());
    } catch (const usage_error& e) {
      r.reason = e.what();
      r.usage = true;
    } catch (const error& e) { r.reason = e.what(); }
    return r;
  }();
  if (p.usage) throw usage_error(*p.reason);
  if (!p.dev) throw unavailable(*p.reason);
  return *p.dev;
}

std::optional<std::string> unavailable_reason() {
  try {
    (void)device::get();
    return std::nullopt;
  } catch (const unavailable& e) { return std::string(e.what()); }
}

void device::check(std::string_view where) {
  auto messages = take_validation_messages();
  if (messages.empty()) return;
  std::string what = std::string(where) + ": " + std::to_string(messages.size()) + " validation message(s): ";
  for (std::size_t i = 0; i < messages.size() && i < 4; ++i) what += (i ? " | " : "") + messages[i];
  throw error(what);
}

std::optional<std::uint32_t> device::memory_type(std::uint32_t type_bits, VkMemoryPropertyFlags want) const {
  VkPhysicalDeviceMemoryProperties mp{};
  vkGetPhysicalDeviceMemoryProperties(m_physical, &mp);
  for (std::uint32_t i = 0; i < mp.memoryTypeCount; ++i)
    if ((type_bits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & want) == want) return i;
  return std::nullopt;
}

std::vector<std::string> take_validation_messages() {
  const std::lock_guard lock(g_messages_mutex);
  return std::exchange(g_messages, {});
}

void device::begin_label(VkCommandBuffer cmd, std::string_view name) const {
  if (!m_begin_label) return;
  const std::string text(name); // NUL-terminated
  VkDebugUtilsLabelEXT label{VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT};
  label.pLabelName = text.c_str();
  m_begin_label(cmd, &label);
}

void device::end_label(VkCommandBuffer cmd) const {
  if (m_end_label) m_end_label(cmd);
}

void device::begin_conditional(VkCommandBuffer cmd, VkBuffer predicate, VkDeviceSize offset) const {
  if (!m_begin_conditional) throw error("winnow::vk::device: " + m_props.name + " has no VK_EXT_conditional_rendering");
  VkConditionalRenderingBeginInfoEXT info{VK_STRUCTURE_TYPE_CONDITIONAL_RENDERING_BEGIN_INFO_EXT};
  info.buffer = predicate;
  info.offset = offset;
  m_begin_conditional(cmd, &info);
}

void device::end_conditional(VkCommandBuffer cmd) const {
  if (!m_end_conditional) throw error("winnow::vk::device: " + m_props.name + " has no VK_EXT_conditional_rendering");
  m_end_conditional(cmd);
}

} // namespace winnow::vk
