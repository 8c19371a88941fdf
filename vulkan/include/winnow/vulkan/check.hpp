#pragma once
/// WINNOW_VK_CHECK(call): a VkResult other than VK_SUCCESS throws winnow::error with file:line, the
/// call's text and the result's name, e.g. "device.cpp:88: vkCreateDevice(...): VK_ERROR_DEVICE_LOST"
/// (VK_ERROR_DEVICE_LOST as winnow::context_lost).
#include <vulkan/vulkan.h>

#include <source_location>
#include <string_view>

#include "winnow/error.hpp"

namespace winnow::vk {

/// "VK_ERROR_OUT_OF_DEVICE_MEMORY"; "VkResult(n)" for a code this build does not name.
[[nodiscard]] std::string_view to_string(VkResult r);

/// What WINNOW_VK_CHECK throws for a failed result: context_lost for VK_ERROR_DEVICE_LOST (the
/// device is gone for this process), error for the others.
[[noreturn]] void throw_result(VkResult r, std::string_view call,
                               std::source_location where = std::source_location::current());

} // namespace winnow::vk

#define WINNOW_VK_CHECK(call)                                                                                          \
  do {                                                                                                                 \
    const VkResult winnow_vk_result_ = (call);                                                                         \
    if (winnow_vk_result_ != VK_SUCCESS) ::winnow::vk::throw_result(winnow_vk_result_, #call);                         \
  } while (false)
