#include "winnow/vulkan/image.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

#include "winnow/vulkan/buffer.hpp"
#include "winnow/vulkan/check.hpp"
#include "winnow/vulkan/device.hpp"
#include "winnow/vulkan/sequence.hpp"

namespace winnow::vk {
namespace {

constexpr VkImageSubresourceRange whole{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};

/// Rows [y0, y0 + rows) of an image and a tightly packed buffer.
VkBufferImageCopy rows_region(std::uint32_t width, std::uint32_t y0, std::uint32_t rows) {
  VkBufferImageCopy r{};
  r.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  r.imageOffset = {0, static_cast<std::int32_t>(y0), 0};
  r.imageExtent = {width, rows, 1};
  return r;
}

/// A layout transition of the whole image with a full memory dependency (transfers only, never timed).
void transition(VkCommandBuffer cmd, VkImage img, VkImageLayout from, VkImageLayout to) {
  VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  b.srcAccessMask = from == VK_IMAGE_LAYOUT_UNDEFINED ? 0 : VK_ACCESS_MEMORY_WRITE_BIT;
  b.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
  b.oldLayout = from;
  b.newLayout = to;
  b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.image = img;
  b.subresourceRange = whole;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 0, nullptr, 0,
                       nullptr, 1, &b);
}

} // namespace

image::image(std::string name, std::uint32_t width, std::uint32_t height)
    : m_name(std::move(name)), m_width(width), m_height(height) {
  device& d = device::get();
  const std::uint32_t limit = d.properties().max_image_width;
  if (width == 0 || height == 0 || width > limit || height > limit)
    throw unavailable("winnow::vk::image: '" + m_name + "' of " + std::to_string(width) + " × " +
                      std::to_string(height) + " texels is over maxImageDimension2D (" + std::to_string(limit) + ")");
  VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  ici.imageType = VK_IMAGE_TYPE_2D;
  ici.format = VK_FORMAT_R32_UINT;
  ici.extent = {width, height, 1};
  ici.mipLevels = 1;
  ici.arrayLayers = 1;
  ici.samples = VK_SAMPLE_COUNT_1_BIT;
  ici.tiling = VK_IMAGE_TILING_OPTIMAL;
  ici.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
              VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  ici.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  WINNOW_VK_CHECK(vkCreateImage(d.handle(), &ici, nullptr, &m_image));
  VkMemoryRequirements req{};
  vkGetImageMemoryRequirements(d.handle(), m_image, &req);
  const auto type = d.memory_type(req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  if (!type) {
    release();
    throw error("winnow::vk::image: '" + m_name + "': no device-local memory type");
  }
  VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  mai.allocationSize = req.size;
  mai.memoryTypeIndex = *type;
  if (const VkResult r = vkAllocateMemory(d.handle(), &mai, nullptr, &m_memory); r != VK_SUCCESS) {
    m_memory = VK_NULL_HANDLE;
    release();
    throw unavailable("winnow::vk::image: out of device memory: '" + m_name + "' asked for " +
                      std::to_string(req.size) + " bytes: " + std::string(to_string(r)));
  }
  WINNOW_VK_CHECK(vkBindImageMemory(d.handle(), m_image, m_memory, 0));
  VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  vci.image = m_image;
  vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
  vci.format = VK_FORMAT_R32_UINT;
  vci.subresourceRange = whole;
  WINNOW_VK_CHECK(vkCreateImageView(d.handle(), &vci, nullptr, &m_view));

  // Into the layout of a pass's input, where an image rests until a pass draws into it.
  sequence& s = transfer_sequence();
  s.begin();
  m_layout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
  transition(s.cmd(), m_image, VK_IMAGE_LAYOUT_UNDEFINED, m_layout);
  s.submit_and_wait();
  d.check("winnow::vk::image: '" + m_name + "'");
}

image::image(image&& o) noexcept
    : m_name(std::move(o.m_name)), m_width(std::exchange(o.m_width, 0)), m_height(std::exchange(o.m_height, 0)),
      m_image(std::exchange(o.m_image, VK_NULL_HANDLE)), m_memory(std::exchange(o.m_memory, VK_NULL_HANDLE)),
      m_view(std::exchange(o.m_view, VK_NULL_HANDLE)), m_layout(std::exchange(o.m_layout, VK_IMAGE_LAYOUT_UNDEFINED)) {}

image& image::operator=(image&& o) noexcept {
  if (this != &o) {
    release();
    m_name = std::move(o.m_name);
    m_width = std::exchange(o.m_width, 0);
    m_height = std::exchange(o.m_height, 0);
    m_image = std::exchange(o.m_image, VK_NULL_HANDLE);
    m_memory = std::exchange(o.m_memory, VK_NULL_HANDLE);
    m_view = std::exchange(o.m_view, VK_NULL_HANDLE);
    m_layout = std::exchange(o.m_layout, VK_IMAGE_LAYOUT_UNDEFINED);
  }
  return *this;
}

image::~image() { release(); }

void image::release() noexcept {
  if (!m_image && !m_memory && !m_view) return;
  const VkDevice d = device::get().handle();
  if (m_view) vkDestroyImageView(d, m_view, nullptr);
  if (m_image) vkDestroyImage(d, m_image, nullptr);
  if (m_memory) vkFreeMemory(d, m_memory, nullptr);
  m_view = VK_NULL_HANDLE;
  m_image = VK_NULL_HANDLE;
  m_memory = VK_NULL_HANDLE;
}

std::optional<VkImageMemoryBarrier> image::enter(VkImageLayout to, VkAccessFlags src, VkAccessFlags dst, bool discard) {
  if (to == m_layout) return std::nullopt;
  VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  b.srcAccessMask = src;
  b.dstAccessMask = dst;
  b.oldLayout = discard ? VK_IMAGE_LAYOUT_UNDEFINED : m_layout;
  b.newLayout = to;
  b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.image = m_image;
  b.subresourceRange = whole;
  m_layout = to;
  return b;
}

void image::upload(std::span<const std::uint32_t> words) {
  const std::uint64_t texels = std::uint64_t{m_width} * m_height;
  if (words.size() > texels)
    throw error("winnow::vk::image: upload of " + std::to_string(words.size()) + " words overruns '" + m_name + "' (" +
                std::to_string(texels) + " texels)");
  buffer staging(m_name + " (staging)", 4 * texels, true);
  auto* host = static_cast<std::uint32_t*>(staging.mapped());
  std::copy(words.begin(), words.end(), host);
  std::fill(host + words.size(), host + texels, 0u);
  sequence& s = transfer_sequence();
  s.begin();
  const VkBufferImageCopy region = rows_region(m_width, 0, m_height);
  transition(s.cmd(), m_image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL); // all rewritten
  vkCmdCopyBufferToImage(s.cmd(), staging.handle(), m_image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
  transition(s.cmd(), m_image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, m_layout);
  s.submit_and_wait();
  device::get().check("winnow::vk::image: upload to '" + m_name + "'");
}

void image::record_copy(VkCommandBuffer cmd, VkBuffer dst, std::uint32_t y0, std::uint32_t rows) const {
  const VkBufferImageCopy region = rows_region(m_width, y0, rows);
  transition(cmd, m_image, m_layout, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
  vkCmdCopyImageToBuffer(cmd, m_image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, dst, 1, &region);
  transition(cmd, m_image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, m_layout);
}

std::vector<std::uint32_t> image::download(std::uint32_t y0, std::uint32_t rows) const {
  if (rows == 0) return {};
  if (y0 + rows > m_height)
    throw error("winnow::vk::image: download of rows [" + std::to_string(y0) + ", " + std::to_string(y0 + rows) +
                ") overruns '" + m_name + "' (" + std::to_string(m_height) + " rows)");
  const std::uint64_t count = std::uint64_t{m_width} * rows;
  buffer staging(m_name + " (staging)", 4 * count, true);
  sequence& s = transfer_sequence();
  s.begin();
  record_copy(s.cmd(), staging.handle(), y0, rows);
  s.submit_and_wait();
  std::vector<std::uint32_t> out(count);
  std::memcpy(out.data(), staging.mapped(), 4 * count);
  device::get().check("winnow::vk::image: download from '" + m_name + "'");
  return out;
}

} // namespace winnow::vk
