#pragma once
/// A device-local storage buffer with a device address; uploads and downloads go through a
/// host-visible staging buffer and a transfer sequence (never inside a timed run).
#include <vulkan/vulkan.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace winnow::vk {

/// The read-back buffer the executors keep for read_midway from prepare on: the adaptive algorithm's
/// sample (4096 words) and more.
inline constexpr std::uint64_t midway_bytes = 64 << 10;

class buffer {
public:
  buffer() = default;
  /// `bytes` rounded up to 4 (at least 4). Throws unavailable "winnow::vk::buffer: out of device
  /// memory: NAME asked for N bytes" when the allocation fails for want of memory, or is over
  /// maxMemoryAllocationSize. `host_visible`: a staging buffer (mapped, coherent). `usage`: what
  /// else it serves (VK_BUFFER_USAGE_CONDITIONAL_RENDERING_BIT_EXT for predicates).
  buffer(std::string name, std::uint64_t bytes, bool host_visible = false, VkBufferUsageFlags usage = 0);
  buffer(buffer&& o) noexcept;
  buffer& operator=(buffer&& o) noexcept;
  buffer(const buffer&) = delete;
  buffer& operator=(const buffer&) = delete;
  ~buffer();

  [[nodiscard]] VkBuffer handle() const { return m_buffer; }
  [[nodiscard]] std::uint64_t size() const { return m_size; }
  [[nodiscard]] bool valid() const { return m_buffer != VK_NULL_HANDLE; }
  /// The device address of byte `offset` (for pass_args). 0 for an empty handle.
  [[nodiscard]] VkDeviceAddress address(std::uint64_t offset = 0) const { return m_address ? m_address + offset : 0; }
  [[nodiscard]] const std::string& name() const { return m_name; }
  /// A staging buffer's mapping (host-visible, coherent); nullptr for a device-local one.
  [[nodiscard]] void* mapped() const { return m_mapped; }
  /// A staging buffer's first `count` words (no more than it holds), as the device last left them.
  [[nodiscard]] std::vector<std::uint32_t> mapped_words(std::uint64_t count) const;

  /// Copies `words` to 32-bit word `first` onward, through staging; waits.
  void upload(std::span<const std::uint32_t> words, std::uint64_t first = 0);
  /// Reads `count` 32-bit words from word `first` on, through staging; waits.
  [[nodiscard]] std::vector<std::uint32_t> download(std::uint64_t count, std::uint64_t first = 0) const;
  /// Copies all of `source` (no larger) to the start of this buffer on the device (vkCmdCopyBuffer);
  /// waits. A reset between runs this way keeps the GPU busy: a re-upload of a 1 GiB stream
  /// through staging left it idle long enough to drop its clocks (docs/driver-quirks.md).
  void copy_from(const buffer& source);
  /// Copies the first `bytes` of `source` to the start of this buffer on the device and sets the
  /// rest of it to 0, in one submission; waits. (A case's stream into a plan's padded stream.)
  void copy_prefix(const buffer& source, std::uint64_t bytes);
  /// Sets every word to `value` (vkCmdFillBuffer); waits.
  void fill(std::uint32_t value);

private:
  void release() noexcept;
  std::string m_name;
  std::uint64_t m_size = 0;
  VkBuffer m_buffer = VK_NULL_HANDLE;
  VkDeviceMemory m_memory = VK_NULL_HANDLE;
  VkDeviceAddress m_address = 0;
  void* m_mapped = nullptr;
};

} // namespace winnow::vk
