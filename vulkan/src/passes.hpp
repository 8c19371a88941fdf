#pragma once
// Records passes into a sequence and keeps the tally the records report (dispatches, words read
// and written by the same model as gl/'s pass_runner, so the two backends' traffic compares).
#include <cstdint>
#include <string>
#include <vector>

#include "winnow/vulkan/pipeline.hpp"
#include "winnow/vulkan/sequence.hpp"

namespace winnow::vk {

/// Where streams live (mirrors gl/layout.hpp): a stream of `count` elements is padded to
/// width × height, width the power of two ≥ √count (at least min_width, at most max_width, then
/// the height grows). Vulkan has no texture, but the padding, the block count and therefore the
/// passes of the inter-block scan are then those of the GL backend on the same case.
struct stream_layout {
  std::uint32_t width = 1, height = 1, log2_width = 0;
  std::uint64_t count = 0;
  [[nodiscard]] std::uint64_t size() const { return std::uint64_t{width} * height; }
};
/// 32768 = GL_MAX_TEXTURE_SIZE on the NVIDIA driver the benchmarks run on.
inline constexpr std::uint32_t max_layout_width = 32768;
[[nodiscard]] stream_layout layout_for(std::uint64_t count, std::uint32_t min_width, std::uint32_t max_width = max_layout_width);
[[nodiscard]] std::uint32_t log2_exact(std::uint64_t power_of_two);

/// The local size of elementwise passes: 256, or less where the device allows less.
[[nodiscard]] std::uint32_t default_local_size();
/// The device's pipeline for `shader` with local size `local` and constants 1.. = `rest`.
[[nodiscard]] const pipeline& shader(const std::string& name, std::uint32_t local, std::vector<std::uint32_t> rest = {});

class pass_runner {
public:
  void attach(sequence& s) { m_seq = &s; }
  [[nodiscard]] sequence& seq() { return *m_seq; }
  /// One pass of `invocations` invocations (args.n is set here); each writes one word and reads
  /// `reads` distinct input words — gl/'s model: a word fetched again by a neighbour or by the next
  /// step of a search is a cache hit, not memory traffic (Hillis-Steele 1, up-sweep 2, Horn's
  /// search 2: the stream and the scan).
  void run(const pipeline& p, pass_args args, std::uint64_t invocations, double reads);
  /// One pass of `groups` workgroups (args.n is the caller's) with its own traffic [words].
  void run_groups(const pipeline& p, const pass_args& args, std::uint64_t groups, std::uint64_t words_read,
                  std::uint64_t words_written);
  void reset_tally() { m_passes = m_read = m_written = 0; }
  [[nodiscard]] std::uint64_t passes() const { return m_passes; }
  [[nodiscard]] std::uint64_t bytes_read() const { return 4 * m_read; }
  [[nodiscard]] std::uint64_t bytes_written() const { return 4 * m_written; }

private:
  sequence* m_seq = nullptr;
  std::uint64_t m_passes = 0, m_read = 0, m_written = 0;
};

} // namespace winnow::vk
