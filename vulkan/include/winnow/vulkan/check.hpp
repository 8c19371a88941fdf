#pragma once
/// WINNOW_VK_CHECK(call): a VkResult other than VK_SUCCESS throws winnow::error with file:line, the
/// call's text and the result's name, e.g. "device.cpp:88: vkCreateDevice(...): VK_ERROR_DEVICE_LOST".
#include <vulkan/vulkan.h>

#include <string_view>

#include "winnow/error.hpp"

namespace winnow::vk {

/// "VK_ERROR_OUT_OF_DEVICE_MEMORY"; "VkResult(n)" for a code this build does not name.
[[nodiscard]] std::string_view to_string(VkResult r);

} // namespace winnow::vk

#define WINNOW_VK_CHECK(call)                                                                                          \
  do {                                                                                                                 \
    const VkResult winnow_vk_result_ = (call);                                                                         \
    if (winnow_vk_result_ != VK_SUCCESS)                                                                               \
      ::winnow::throw_call_error(#call, ::winnow::vk::to_string(winnow_vk_result_));                                   \
  } while (false)
