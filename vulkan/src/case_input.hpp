#pragma once
// A case's input on the device, shared by the case's vk records (winnow::device_copies, as
// cuda/src/case_input.hpp on CUDA): the first record uploads the stream and its removal list, and
// every later prepare copies them on the device instead of uploading from the host through a
// staging buffer made for the purpose. No algorithm gets these buffers: they are the source of
// prepare's copies and the device check's input as generated, so a run that writes where it must not
// cannot change what the next record starts from or is checked against.
#include <cstdint>
#include <span>

#include "winnow/device_copies.hpp"
#include "winnow/vulkan/buffer.hpp"

namespace winnow::vk {

struct case_input {
  case_input(std::span<const std::uint32_t> stream, std::span<const std::uint32_t> removals);
  buffer data;     ///< the stream as generated, one word an element
  buffer removals; ///< R as generated (4 bytes where R is empty)
};

/// The case's input on the device, made on first use from `stream` and `removals` (the case's own,
/// unpadded); nullptr without a case to share it (`copies` is nullptr) or when the device has no
/// room for it: the caller then uploads from the host. A lost device is thrown.
[[nodiscard]] const case_input* shared_input(device_copies* copies, std::span<const std::uint32_t> stream,
                                             std::span<const std::uint32_t> removals);

} // namespace winnow::vk
