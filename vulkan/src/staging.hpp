#pragma once
// Large copies between host memory and a device buffer, through two host-visible chunks kept for the
// process (cuda/src/staging.hpp does the same for CUDA). A copy used to allocate a host-visible
// buffer of its whole size, fill it on one core and free it: on the H100 a 2^28-element stream (1 GiB)
// took vk/lookback's prepare 1.6-1.9 s, and a 2 GiB one 3.1-3.4 s. Here all cores fill one chunk while
// the device empties the other, and a download the other way round.
#include <vulkan/vulkan.h>

#include <cstddef>

namespace winnow::vk {

/// Copies `bytes` from host memory to `dst` at byte `offset`; returns once the device has them.
void upload_bytes(VkBuffer dst, VkDeviceSize offset, const void* src, std::size_t bytes);

/// Copies `bytes` of `src` from byte `offset` into host memory; returns once they are there.
void download_bytes(void* dst, VkBuffer src, VkDeviceSize offset, std::size_t bytes);

/// Copies of at least this many bytes go through the chunks; smaller ones through a staging buffer
/// of their own, where the chunks' turns would cost more than they save.
inline constexpr std::size_t staged_copy_bytes = std::size_t{16} << 20;

} // namespace winnow::vk
