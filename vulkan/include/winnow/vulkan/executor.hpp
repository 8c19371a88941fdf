#pragma once
/// The Vulkan compute executor of the shader-era plans: every resource a storage buffer (a pyramid,
/// one buffer with its levels back to back), every gather pass one dispatch of its shader
/// (common/shaders/<shader>.glsl compiled for compute), the mark pass a scatter, the concatenation a
/// workgroup's copy per block or a search per output word. A run records every pass into one
/// command buffer, a barrier between passes, and waits for it.
#include <memory>
#include <optional>
#include <vector>

#include "winnow/shader_era/executor.hpp"
#include "winnow/vulkan/buffer.hpp"
#include "winnow/vulkan/pipeline.hpp"
#include "winnow/vulkan/sequence.hpp"

namespace winnow::vk {

/// The layout limit of the plans on Vulkan: GL_MAX_TEXTURE_SIZE of the NVIDIA driver the benchmarks
/// run on, so the two APIs lay streams out alike and run the same passes.
inline constexpr std::uint32_t max_layout_width = 32768;

class executor final : public shader_era::executor {
public:
  [[nodiscard]] std::uint32_t max_width() const override { return max_layout_width; }
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
  [[nodiscard]] std::vector<std::uint32_t> read(const shader_era::view& v, std::uint64_t first,
                                                std::uint64_t count) override;
  /// On the device (vulkan/src/device_check.hpp), against the case's copies.
  [[nodiscard]] std::optional<bool> matches(const shader_era::plan& pl, const expected_output& expected,
                                            bool stable) override;
  [[nodiscard]] std::unique_ptr<winnow::timer> make_timer() override;
  void flush_caches() override;

private:
  struct compiled {
    const pipeline* pipe = nullptr;
    std::vector<std::byte> push;
    std::uint64_t groups = 0;
  };
  /// A barrier before the round's first dispatch only.
  void record_in_round(std::size_t pass_index, bool first) override { dispatch(pass_index, first); }
  void dispatch(std::size_t pass_index, bool after_previous);
  [[nodiscard]] VkDeviceAddress address(const shader_era::view& v) const;

  const shader_era::plan* m_plan = nullptr;
  std::vector<buffer> m_buffers; ///< per resource
  std::vector<compiled> m_passes;
  std::unique_ptr<sequence> m_seq;
  std::unique_ptr<buffer> m_readback;                        ///< read_midway's and read_at_end's, mapped
  std::uint64_t m_at_end_words = 0;                          ///< what read_at_end copied into it
  std::unique_ptr<buffer> m_predicates;                      ///< predicate_on's (predicate_words), where predicates()
  std::optional<shader_era::resource_id> m_predicate_source; ///< copied into m_predicates in this recording
};

/// The axes of this executor: `items`, the output words per invocation of a gather pass (1, or 4
/// stored as one 16-byte vector where the output is aligned).
[[nodiscard]] std::vector<param_axis> executor_axes();

/// The local size of elementwise passes: 256, or less where the device allows less.
[[nodiscard]] std::uint32_t default_local_size();

/// The buffer predicate_on copies a choice into (both executors'): predicate_words, zeroed, of
/// conditional-rendering usage. Only where the device has conditional rendering.
[[nodiscard]] std::unique_ptr<buffer> make_predicate_buffer();

/// Evicts the device's caches before a cold repetition (every vk algorithm's flush_caches).
void flush_device_caches();

} // namespace winnow::vk
