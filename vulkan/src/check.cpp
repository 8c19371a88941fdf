#include "winnow/vulkan/check.hpp"

#include <string>

namespace winnow::vk {

std::string_view to_string(VkResult r) {
  switch (r) {
#define WINNOW_VK_NAME(x)                                                                                              \
  case x: return #x;
    WINNOW_VK_NAME(VK_SUCCESS)
    WINNOW_VK_NAME(VK_NOT_READY)
    WINNOW_VK_NAME(VK_TIMEOUT)
    WINNOW_VK_NAME(VK_EVENT_SET)
    WINNOW_VK_NAME(VK_EVENT_RESET)
    WINNOW_VK_NAME(VK_INCOMPLETE)
    WINNOW_VK_NAME(VK_ERROR_OUT_OF_HOST_MEMORY)
    WINNOW_VK_NAME(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    WINNOW_VK_NAME(VK_ERROR_INITIALIZATION_FAILED)
    WINNOW_VK_NAME(VK_ERROR_DEVICE_LOST)
    WINNOW_VK_NAME(VK_ERROR_MEMORY_MAP_FAILED)
    WINNOW_VK_NAME(VK_ERROR_LAYER_NOT_PRESENT)
    WINNOW_VK_NAME(VK_ERROR_EXTENSION_NOT_PRESENT)
    WINNOW_VK_NAME(VK_ERROR_FEATURE_NOT_PRESENT)
    WINNOW_VK_NAME(VK_ERROR_INCOMPATIBLE_DRIVER)
    WINNOW_VK_NAME(VK_ERROR_TOO_MANY_OBJECTS)
    WINNOW_VK_NAME(VK_ERROR_FORMAT_NOT_SUPPORTED)
    WINNOW_VK_NAME(VK_ERROR_FRAGMENTED_POOL)
    WINNOW_VK_NAME(VK_ERROR_UNKNOWN)
    WINNOW_VK_NAME(VK_ERROR_OUT_OF_POOL_MEMORY)
    WINNOW_VK_NAME(VK_ERROR_INVALID_EXTERNAL_HANDLE)
    WINNOW_VK_NAME(VK_ERROR_FRAGMENTATION)
    WINNOW_VK_NAME(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
    WINNOW_VK_NAME(VK_PIPELINE_COMPILE_REQUIRED)
    WINNOW_VK_NAME(VK_ERROR_VALIDATION_FAILED_EXT)
#undef WINNOW_VK_NAME
  default: break;
  }
  thread_local std::string unknown;
  unknown = "VkResult(" + std::to_string(static_cast<int>(r)) + ")";
  return unknown;
}

void throw_result(VkResult r, std::string_view call, std::source_location where) {
  if (r == VK_ERROR_DEVICE_LOST) throw_context_lost(call, to_string(r), where);
  throw_call_error(call, to_string(r), where);
}

} // namespace winnow::vk
