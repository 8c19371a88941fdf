#pragma once
/// The Vulkan fragment path of the shader-era plans (api `vkfrag`): the passes the GL executor runs,
/// through Vulkan's graphics pipeline. Every resource an R32_UINT image (a pyramid, an image per
/// level), every gather pass one full-screen triangle with its shader from common/shaders into the
/// output image by dynamic rendering, reading the inputs with texelFetch; the mark pass one point per
/// removal; the concatenation two lines (or two rectangles) per block. A run records every pass into
/// one command buffer with a barrier between passes — a memory barrier, and a layout transition of
/// each image that a pass draws into after others read it or reads after another pass drew into it
/// (COLOR_ATTACHMENT_OPTIMAL ↔ SHADER_READ_ONLY_OPTIMAL) — so the same passes can be timed on GL,
/// on Vulkan's graphics pipeline and on Vulkan compute.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "winnow/shader_era/executor.hpp"
#include "winnow/vulkan/buffer.hpp"
#include "winnow/vulkan/image.hpp"
#include "winnow/vulkan/raster_pipeline.hpp"
#include "winnow/vulkan/sequence.hpp"

namespace winnow::vk {

class fragment_executor final : public shader_era::executor {
public:
  fragment_executor() = default;
  fragment_executor(const fragment_executor&) = delete;
  fragment_executor& operator=(const fragment_executor&) = delete;
  ~fragment_executor() override;

  /// maxImageDimension2D, at most the compute path's layout limit (the same layouts on both).
  [[nodiscard]] std::uint32_t max_width() const override;
  void prepare(const shader_era::plan& p, const param_set& params, const shader_era::case_words& input) override;
  void write(const shader_era::view& v, std::span<const std::uint32_t> words) override;
  void begin() override;
  void record(std::size_t pass_index) override;
  void end() override;
  [[nodiscard]] std::vector<std::uint32_t> read_midway(const shader_era::view& v, std::uint64_t count) override;
  void flush() override;
  /// Where the device has VK_EXT_conditional_rendering: the predicate words are copied into a buffer
  /// of that usage (once a recording) and the passes between predicate_on and _off made conditional.
  /// A copy into the mapped read-back buffer, recorded before the run's submission; read_midway is
  /// this, a split and words_at_end().
  void read_at_end(const shader_era::view& v, std::uint64_t count) override;
  [[nodiscard]] std::vector<std::uint32_t> words_at_end() override;
  [[nodiscard]] bool predicates() const override;
  void predicate_on(const shader_era::view& v, std::uint32_t word) override;
  void predicate_off() override;
  /// The round's layout transitions and the order after what came before in one barrier, then each
  /// pass's rendering under its word.
  void record_round(const shader_era::view& choice, std::span<const std::size_t> passes,
                    std::span<const std::uint32_t> words) override;
  [[nodiscard]] bool prefers_rounds() const override { return true; }
  [[nodiscard]] std::vector<std::uint32_t> read(const shader_era::view& v, std::uint64_t first,
                                                std::uint64_t count) override;
  /// On the device (vulkan/src/device_check.hpp): the output's and the stream's rows copied into
  /// buffers on the device, and checked there as the compute path's are.
  [[nodiscard]] std::optional<bool> matches(const shader_era::plan& pl, const expected_output& expected,
                                            bool stable) override;
  [[nodiscard]] std::unique_ptr<winnow::timer> make_timer() override;
  void flush_caches() override;

private:
  struct compiled {
    const raster_pipeline* pipe = nullptr;
    VkDescriptorSet set = VK_NULL_HANDLE;
    std::vector<std::byte> push;
    std::vector<VkRenderingAttachmentInfo> attachments; ///< the output (and the trips)
    VkExtent2D extent{};                                ///< the output's: render area and viewport
    std::uint32_t vertices = 3;
    std::vector<image*> targets, reads; ///< what it draws into; every image its descriptor set holds
    bool keep = false;                  ///< loads the targets' contents (points and lines draw only some texels)
  };
  /// The barriers that bring the pass's images into its layouts (each image's state moves on).
  static void enter_layouts(const compiled& c, std::vector<VkImageMemoryBarrier>& layouts);
  void render(const compiled& c);                 ///< its rendering: begin, state, draw, end
  void copy_predicate(const shader_era::view& v); ///< into m_predicates, once a recording
  [[nodiscard]] const image& image_of(const shader_era::view& v) const;
  [[nodiscard]] image& image_of(const shader_era::view& v);
  void release_sets() noexcept;

  const shader_era::plan* m_plan = nullptr;
  std::vector<std::vector<image>> m_images; ///< per resource: [0] plain, or levels 1 … L at [p − 1]
  std::vector<compiled> m_passes;
  VkDescriptorPool m_pool = VK_NULL_HANDLE;
  std::unique_ptr<image> m_unbound; ///< what bindings a pass does not read hold (1 × 1)
  std::unique_ptr<sequence> m_seq;
  std::unique_ptr<buffer> m_readback;                        ///< read_midway's and read_at_end's, mapped
  buffer m_checked_output, m_checked_stream;                 ///< matches()'s copies of the two images' rows
  std::uint64_t m_at_end_words = 0;                          ///< what read_at_end copied into it
  std::unique_ptr<buffer> m_predicates;                      ///< predicate_on's (predicate_words), where predicates()
  std::optional<shader_era::resource_id> m_predicate_source; ///< copied into m_predicates in this recording
  bool m_drawn = false; ///< a pass was recorded since begin(): the next needs a barrier
};

/// Why the fragment path cannot run here (no Vulkan device; a queue without graphics; no dynamic
/// rendering), or nothing.
[[nodiscard]] std::optional<std::string> fragment_unavailable_reason();

} // namespace winnow::vk
