// A Vulkan layer for one test: it sees the debug labels winnow records, as a capture tool
// (RenderDoc, Nsight Graphics) would, and writes each to the file WINNOW_LABEL_LOG names —
// "begin NAME" and "end" — passing every call on unchanged. Loaded through the loader
// (VK_ADD_LAYER_PATH + VK_INSTANCE_LAYERS), so winnow runs exactly as it does for a user.
#include <vulkan/vk_layer.h>
#include <vulkan/vulkan.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>

namespace {

/// The loader's dispatch table pointer: the first word of every dispatchable handle; a device and
/// its command buffers share it.
void* key(const void* handle) { return *static_cast<void* const*>(handle); }

struct state {
  std::mutex mutex;
  std::map<void*, PFN_vkGetInstanceProcAddr> instance_next;
  std::map<void*, PFN_vkGetDeviceProcAddr> device_next;
  std::map<void*, PFN_vkCmdBeginDebugUtilsLabelEXT> begin_next;
  std::map<void*, PFN_vkCmdEndDebugUtilsLabelEXT> end_next;
};
state& layer() {
  static state s;
  return s;
}

void log(const std::string& line) {
  const char* path = std::getenv("WINNOW_LABEL_LOG");
  if (!path) return;
  if (std::FILE* f = std::fopen(path, "a")) {
    std::fprintf(f, "%s\n", line.c_str());
    std::fclose(f);
  }
}

template <class T> const T* find_link(const void* next, VkStructureType type) {
  for (auto* p = static_cast<const T*>(next); p; p = static_cast<const T*>(p->pNext))
    if (p->sType == type && p->function == VK_LAYER_LINK_INFO) return p;
  return nullptr;
}

VKAPI_ATTR void VKAPI_CALL begin_label(VkCommandBuffer cmd, const VkDebugUtilsLabelEXT* label) {
  log(std::string("begin ") + label->pLabelName);
  PFN_vkCmdBeginDebugUtilsLabelEXT next = nullptr;
  {
    std::lock_guard lock(layer().mutex);
    next = layer().begin_next[key(cmd)];
  }
  if (next) next(cmd, label);
}

VKAPI_ATTR void VKAPI_CALL end_label(VkCommandBuffer cmd) {
  log("end");
  PFN_vkCmdEndDebugUtilsLabelEXT next = nullptr;
  {
    std::lock_guard lock(layer().mutex);
    next = layer().end_next[key(cmd)];
  }
  if (next) next(cmd);
}

VKAPI_ATTR VkResult VKAPI_CALL create_instance(const VkInstanceCreateInfo* info, const VkAllocationCallbacks* alloc,
                                               VkInstance* instance) {
  auto* link = const_cast<VkLayerInstanceCreateInfo*>(
      find_link<VkLayerInstanceCreateInfo>(info->pNext, VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO));
  if (!link) return VK_ERROR_INITIALIZATION_FAILED;
  const PFN_vkGetInstanceProcAddr next = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext; // the next layer's turn
  auto create = reinterpret_cast<PFN_vkCreateInstance>(next(VK_NULL_HANDLE, "vkCreateInstance"));
  const VkResult r = create(info, alloc, instance);
  if (r == VK_SUCCESS) {
    std::lock_guard lock(layer().mutex);
    layer().instance_next[key(*instance)] = next;
  }
  return r;
}

VKAPI_ATTR VkResult VKAPI_CALL create_device(VkPhysicalDevice physical, const VkDeviceCreateInfo* info,
                                             const VkAllocationCallbacks* alloc, VkDevice* device) {
  auto* link = const_cast<VkLayerDeviceCreateInfo*>(
      find_link<VkLayerDeviceCreateInfo>(info->pNext, VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO));
  if (!link) return VK_ERROR_INITIALIZATION_FAILED;
  const PFN_vkGetInstanceProcAddr next_instance = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  const PFN_vkGetDeviceProcAddr next_device = link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext;
  auto create = reinterpret_cast<PFN_vkCreateDevice>(next_instance(VK_NULL_HANDLE, "vkCreateDevice"));
  const VkResult r = create(physical, info, alloc, device);
  if (r == VK_SUCCESS) {
    std::lock_guard lock(layer().mutex);
    layer().device_next[key(*device)] = next_device;
    layer().begin_next[key(*device)] =
        reinterpret_cast<PFN_vkCmdBeginDebugUtilsLabelEXT>(next_device(*device, "vkCmdBeginDebugUtilsLabelEXT"));
    layer().end_next[key(*device)] =
        reinterpret_cast<PFN_vkCmdEndDebugUtilsLabelEXT>(next_device(*device, "vkCmdEndDebugUtilsLabelEXT"));
  }
  return r;
}

PFN_vkVoidFunction ours(const char* name);

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL get_device_proc_addr(VkDevice device, const char* name) {
  if (auto f = ours(name)) return f;
  PFN_vkGetDeviceProcAddr next = nullptr;
  {
    std::lock_guard lock(layer().mutex);
    next = layer().device_next[key(device)];
  }
  return next ? next(device, name) : nullptr;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL get_instance_proc_addr(VkInstance instance, const char* name) {
  if (auto f = ours(name)) return f;
  if (!instance) return nullptr;
  PFN_vkGetInstanceProcAddr next = nullptr;
  {
    std::lock_guard lock(layer().mutex);
    next = layer().instance_next[key(instance)];
  }
  return next ? next(instance, name) : nullptr;
}

PFN_vkVoidFunction ours(const char* name) {
  const std::pair<const char*, PFN_vkVoidFunction> table[] = {
      {"vkGetInstanceProcAddr", reinterpret_cast<PFN_vkVoidFunction>(get_instance_proc_addr)},
      {"vkGetDeviceProcAddr", reinterpret_cast<PFN_vkVoidFunction>(get_device_proc_addr)},
      {"vkCreateInstance", reinterpret_cast<PFN_vkVoidFunction>(create_instance)},
      {"vkCreateDevice", reinterpret_cast<PFN_vkVoidFunction>(create_device)},
      {"vkCmdBeginDebugUtilsLabelEXT", reinterpret_cast<PFN_vkVoidFunction>(begin_label)},
      {"vkCmdEndDebugUtilsLabelEXT", reinterpret_cast<PFN_vkVoidFunction>(end_label)}};
  for (const auto& [n, f] : table)
    if (std::strcmp(n, name) == 0) return f;
  return nullptr;
}

} // namespace

extern "C" VKAPI_ATTR VkResult VKAPI_CALL vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface* v) {
  if (v->loaderLayerInterfaceVersion > 2) v->loaderLayerInterfaceVersion = 2;
  v->pfnGetInstanceProcAddr = get_instance_proc_addr;
  v->pfnGetDeviceProcAddr = get_device_proc_addr;
  v->pfnGetPhysicalDeviceProcAddr = nullptr;
  return VK_SUCCESS;
}
