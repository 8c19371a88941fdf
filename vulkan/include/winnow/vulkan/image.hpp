#pragma once
/// A device-local W × H R32_UINT image, for the fragment path: a colour attachment of one pass and a
/// sampled image (texelFetch) of the next, as a GL texture is. It remembers the layout it was last
/// recorded in (COLOR_ATTACHMENT_OPTIMAL while a pass draws into it, SHADER_READ_ONLY_OPTIMAL while
/// passes read it; it starts in the latter), so the executor records a layout transition only where
/// a pass uses it differently from the pass before. Uploads and downloads of whole rows go through a
/// staging buffer on the transfer sequence (never timed), in the transfer layouts and back.
#include <vulkan/vulkan.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace winnow::vk {

class image {
public:
  image() = default;
  /// Throws unavailable naming the image when the device has no memory for it or the size is over
  /// maxImageDimension2D.
  image(std::string name, std::uint32_t width, std::uint32_t height);
  image(image&& o) noexcept;
  image& operator=(image&& o) noexcept;
  image(const image&) = delete;
  image& operator=(const image&) = delete;
  ~image();

  [[nodiscard]] VkImage handle() const { return m_image; }
  [[nodiscard]] VkImageView view() const { return m_view; }
  [[nodiscard]] std::uint32_t width() const { return m_width; }
  [[nodiscard]] std::uint32_t height() const { return m_height; }
  [[nodiscard]] const std::string& name() const { return m_name; }
  [[nodiscard]] VkImageLayout layout() const { return m_layout; }

  /// The barrier that takes the image from the layout it was last recorded in to `to` (none when it
  /// is there already), making `src` accesses before it visible to `dst` accesses after it; `to` is
  /// the image's layout from then on. `discard`: its contents need not survive (the old layout is
  /// then given as UNDEFINED). Recording order must be execution order, as it is for a sequence that
  /// is recorded, submitted and waited for.
  [[nodiscard]] std::optional<VkImageMemoryBarrier> enter(VkImageLayout to, VkAccessFlags src, VkAccessFlags dst,
                                                          bool discard);

  /// Writes `words` row-major from row 0, zeros past them to the end of the image; waits.
  void upload(std::span<const std::uint32_t> words);
  /// Reads rows [y0, y0 + rows), row-major; waits.
  [[nodiscard]] std::vector<std::uint32_t> download(std::uint32_t y0, std::uint32_t rows) const;
  /// Records the copy of rows [y0, y0 + rows) into `dst` from byte 0, tightly packed, between layout
  /// transitions to a transfer source and back (full memory dependencies both).
  void record_copy(VkCommandBuffer cmd, VkBuffer dst, std::uint32_t y0, std::uint32_t rows) const;

private:
  void release() noexcept;
  std::string m_name;
  std::uint32_t m_width = 0, m_height = 0;
  VkImage m_image = VK_NULL_HANDLE;
  VkDeviceMemory m_memory = VK_NULL_HANDLE;
  VkImageView m_view = VK_NULL_HANDLE;
  VkImageLayout m_layout = VK_IMAGE_LAYOUT_UNDEFINED;
};

} // namespace winnow::vk
