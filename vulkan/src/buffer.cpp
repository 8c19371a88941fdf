#include "winnow/vulkan/buffer.hpp"

#include <cstring>
#include <utility>

#include "staging.hpp"
#include "winnow/vulkan/check.hpp"
#include "winnow/vulkan/device.hpp"
#include "winnow/vulkan/sequence.hpp"

namespace winnow::vk {
namespace {

[[noreturn]] void out_of_memory(const std::string& name, std::uint64_t bytes, std::string_view why) {
  throw unavailable("winnow::vk::buffer: out of device memory: '" + name + "' asked for " + std::to_string(bytes) +
                    " bytes (" + std::to_string(bytes >> 20) + " MiB): " + std::string(why));
}

} // namespace

buffer::buffer(std::string name, std::uint64_t bytes, bool host_visible, VkBufferUsageFlags usage)
    : m_name(std::move(name)) {
  device& d = device::get();
  m_size = bytes < 4 ? 4 : (bytes + 3) & ~std::uint64_t{3};
  if (d.properties().max_allocation && m_size > d.properties().max_allocation)
    out_of_memory(m_name, m_size,
                  "over maxMemoryAllocationSize (" + std::to_string(d.properties().max_allocation) + ")");
  VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bci.size = m_size;
  bci.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
              (host_visible ? 0 : VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT) |
              usage;
  bci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  WINNOW_VK_CHECK(vkCreateBuffer(d.handle(), &bci, nullptr, &m_buffer));
  VkMemoryRequirements req{};
  vkGetBufferMemoryRequirements(d.handle(), m_buffer, &req);
  // Host-visible memory cached where the device has it, as CUDA's pinned memory is: the host copies
  // into and out of it on all cores, and its reads of uncached memory (the first host-visible type
  // NVIDIA lists) are slow. docs/design-notes.md has what the staging chunks cost before and after.
  const VkMemoryPropertyFlags want = host_visible
                                         ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
                                         : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
  auto type =
      host_visible ? d.memory_type(req.memoryTypeBits, want | VK_MEMORY_PROPERTY_HOST_CACHED_BIT) : std::nullopt;
  if (!type) type = d.memory_type(req.memoryTypeBits, want);
  if (!type) {
    release();
    throw error("winnow::vk::buffer: '" + m_name + "': no memory type is " +
                (host_visible ? "host-visible" : "device-local"));
  }
  VkMemoryAllocateFlagsInfo flags{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
  flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
  VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, host_visible ? nullptr : &flags};
  mai.allocationSize = req.size;
  mai.memoryTypeIndex = *type;
  if (const VkResult r = vkAllocateMemory(d.handle(), &mai, nullptr, &m_memory); r != VK_SUCCESS) {
    m_memory = VK_NULL_HANDLE;
    release();
    if (r == VK_ERROR_OUT_OF_DEVICE_MEMORY || r == VK_ERROR_OUT_OF_HOST_MEMORY)
      out_of_memory(m_name, req.size, to_string(r));
    throw_call_error("vkAllocateMemory(" + m_name + ", " + std::to_string(req.size) + " bytes)", to_string(r));
  }
  WINNOW_VK_CHECK(vkBindBufferMemory(d.handle(), m_buffer, m_memory, 0));
  if (host_visible) {
    WINNOW_VK_CHECK(vkMapMemory(d.handle(), m_memory, 0, VK_WHOLE_SIZE, 0, &m_mapped));
  } else {
    VkBufferDeviceAddressInfo ai{VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
    ai.buffer = m_buffer;
    m_address = vkGetBufferDeviceAddress(d.handle(), &ai);
  }
}

buffer::buffer(buffer&& o) noexcept
    : m_name(std::move(o.m_name)), m_size(std::exchange(o.m_size, 0)),
      m_buffer(std::exchange(o.m_buffer, VK_NULL_HANDLE)), m_memory(std::exchange(o.m_memory, VK_NULL_HANDLE)),
      m_address(std::exchange(o.m_address, 0)), m_mapped(std::exchange(o.m_mapped, nullptr)) {}

buffer& buffer::operator=(buffer&& o) noexcept {
  if (this != &o) {
    release();
    m_name = std::move(o.m_name);
    m_size = std::exchange(o.m_size, 0);
    m_buffer = std::exchange(o.m_buffer, VK_NULL_HANDLE);
    m_memory = std::exchange(o.m_memory, VK_NULL_HANDLE);
    m_address = std::exchange(o.m_address, 0);
    m_mapped = std::exchange(o.m_mapped, nullptr);
  }
  return *this;
}

buffer::~buffer() { release(); }

void buffer::release() noexcept {
  if (!m_buffer && !m_memory) return;
  const VkDevice d = device::get().handle();
  if (m_buffer) vkDestroyBuffer(d, m_buffer, nullptr);
  if (m_memory) vkFreeMemory(d, m_memory, nullptr);
  m_buffer = VK_NULL_HANDLE;
  m_memory = VK_NULL_HANDLE;
  m_address = 0;
  m_mapped = nullptr;
}

void buffer::upload(std::span<const std::uint32_t> words, std::uint64_t first) {
  if (words.empty()) return;
  const std::uint64_t bytes = words.size_bytes(), offset = 4 * first;
  if (offset + bytes > m_size)
    throw error("winnow::vk::buffer: upload of " + std::to_string(bytes) + " bytes at " + std::to_string(offset) +
                " overruns '" + m_name + "' (" + std::to_string(m_size) + " bytes)");
  if (bytes >= staged_copy_bytes) {
    upload_bytes(m_buffer, offset, words.data(), bytes);
    return;
  }
  buffer staging(m_name + " (staging)", bytes, true);
  std::memcpy(staging.m_mapped, words.data(), bytes);
  sequence& s = transfer_sequence();
  s.begin();
  const VkBufferCopy region{0, offset, bytes};
  vkCmdCopyBuffer(s.cmd(), staging.handle(), m_buffer, 1, &region);
  s.submit_and_wait();
  device::get().check("winnow::vk::buffer: upload to '" + m_name + "'");
}

void buffer::copy_from(const buffer& source) {
  if (source.m_size > m_size)
    throw error("winnow::vk::buffer: copy of '" + source.m_name + "' (" + std::to_string(source.m_size) +
                " bytes) overruns '" + m_name + "' (" + std::to_string(m_size) + " bytes)");
  sequence& s = transfer_sequence();
  s.begin();
  const VkBufferCopy region{0, 0, source.m_size};
  vkCmdCopyBuffer(s.cmd(), source.m_buffer, m_buffer, 1, &region);
  s.submit_and_wait();
  device::get().check("winnow::vk::buffer: copy from '" + source.m_name + "' to '" + m_name + "'");
}

void buffer::copy_prefix(const buffer& source, std::uint64_t bytes) {
  if (bytes > source.m_size || bytes > m_size || bytes % 4)
    throw error("winnow::vk::buffer: copy of " + std::to_string(bytes) + " bytes of '" + source.m_name + "' (" +
                std::to_string(source.m_size) + " bytes) to '" + m_name + "' (" + std::to_string(m_size) + " bytes)");
  sequence& s = transfer_sequence();
  s.begin();
  const VkBufferCopy region{0, 0, bytes};
  if (bytes) vkCmdCopyBuffer(s.cmd(), source.m_buffer, m_buffer, 1, &region);
  if (bytes < m_size) vkCmdFillBuffer(s.cmd(), m_buffer, bytes, m_size - bytes, 0);
  s.submit_and_wait();
  device::get().check("winnow::vk::buffer: copy from '" + source.m_name + "' to '" + m_name + "'");
}

std::vector<std::uint32_t> buffer::download(std::uint64_t count, std::uint64_t first) const {
  std::vector<std::uint32_t> out(count);
  if (count == 0) return out;
  const std::uint64_t bytes = 4 * count, offset = 4 * first;
  if (offset + bytes > m_size)
    throw error("winnow::vk::buffer: download of " + std::to_string(bytes) + " bytes at " + std::to_string(offset) +
                " overruns '" + m_name + "' (" + std::to_string(m_size) + " bytes)");
  if (bytes >= staged_copy_bytes) {
    download_bytes(out.data(), m_buffer, offset, bytes);
    return out;
  }
  buffer staging(m_name + " (staging)", bytes, true);
  sequence& s = transfer_sequence();
  s.begin();
  const VkBufferCopy region{offset, 0, bytes};
  vkCmdCopyBuffer(s.cmd(), m_buffer, staging.handle(), 1, &region);
  s.submit_and_wait();
  std::memcpy(out.data(), staging.m_mapped, bytes);
  device::get().check("winnow::vk::buffer: download from '" + m_name + "'");
  return out;
}

void buffer::fill(std::uint32_t value) {
  sequence& s = transfer_sequence();
  s.begin();
  vkCmdFillBuffer(s.cmd(), m_buffer, 0, VK_WHOLE_SIZE, value);
  s.submit_and_wait();
  device::get().check("winnow::vk::buffer: fill of '" + m_name + "'");
}

std::vector<std::uint32_t> buffer::mapped_words(std::uint64_t count) const {
  if (!m_mapped || 4 * count > m_size)
    throw error("winnow::vk::buffer: '" + m_name + "': " + std::to_string(count) + " mapped words of a buffer " +
                (m_mapped ? "too small" : "not mapped"));
  const auto* host = static_cast<const std::uint32_t*>(m_mapped);
  return {host, host + count};
}

} // namespace winnow::vk
