#pragma once
// Block-based compaction (ALGORITHMS.md §8) as compute passes, the frame of vk/horn, vk/jj,
// vk/rlz and vk/bt — pass for pass as gl/compaction.hpp:
//   [mark]   removal-list cases: one invocation per index of R writes payload 0 into the stream
//   in-block the algorithm compacts each block of B elements: block b's v_b survivors at [bB, bB + v_b)
//   count    per-block counts into a stream of nb values, then their exclusive scan (stream_scan)
//   concat   §8(d), no rasterizer: `copy` (a workgroup per block copies cnt[b] elements to off[b])
//            or `search` (an invocation per output element binary-searches the offsets)
#include <memory>
#include <optional>

#include "passes.hpp"
#include "scan.hpp"
#include "winnow/algorithm.hpp"
#include "winnow/vulkan/buffer.hpp"
#include "winnow/vulkan/sequence.hpp"

namespace winnow::vk {

/// Parameter axes every block-based vk algorithm shares (keys and values as gl/).
[[nodiscard]] param_axis block_axis();
[[nodiscard]] param_axis scan_axis();
/// `sweep_both`: the conformance sweep covers both methods (both are always accepted).
[[nodiscard]] param_axis concat_axis(bool sweep_both = false);

class block_compaction : public algorithm {
public:
  void prepare(const workload& w, const params& p) override;
  void reset() override;
  void run(timer& t) override;
  compaction_output result() override;
  traffic bytes_moved() const override;
  std::unique_ptr<winnow::timer> make_timer() override;

protected:
  /// Where the count pass reads each block's count: B − the last in-block inclusive scan of the
  /// invalid flags, or one count per block (the Binary-Tree's top level).
  enum class count_source { invalid_scan = 0, per_block = 1 };
  virtual void prepare_in_block(const params& p) = 0;
  /// Records the in-block passes (marking its phases); they write m_compacted. Returns the
  /// address the count pass reads.
  virtual VkDeviceAddress run_in_block(timer& t) = 0;
  [[nodiscard]] virtual count_source counts_from() const = 0;
  [[nodiscard]] virtual std::string name() const = 0;

  /// The pipeline of an in-block search pass: constants {local, B, bound, loop check, extra...}.
  [[nodiscard]] const pipeline& search_pipeline(const std::string& shader, std::uint32_t bound,
                                                std::vector<std::uint32_t> extra = {}) const;
  /// pass_args with the trip buffer filled in when the loop check is on.
  [[nodiscard]] pass_args search_args() const;

  stream_layout m_layout;
  std::uint64_t m_size = 0; ///< padded stream size s
  std::uint32_t m_block = 0, m_log2_block = 0;
  scan_kind m_scan = scan_kind::hillis;
  buffer m_data, m_compacted;
  pass_runner m_runner;
  /// With WINNOW_VK_LOOP_CHECK=1 (the tests), the in-block search pass writes each invocation's
  /// loop trips to m_trips; result() fails when one exceeded m_loop_bound, the bound ALGORITHMS.md
  /// proves (a capped loop writes bound + 1).
  bool m_loop_check = false;
  std::uint32_t m_loop_bound = 0;
  buffer m_trips;

private:
  const workload* m_w = nullptr;
  std::vector<std::uint32_t> m_padded;
  stream_layout m_counts_layout;
  buffer m_removals, m_counts, m_output;
  std::unique_ptr<stream_scan> m_offsets;
  std::unique_ptr<sequence> m_seq;
  bool m_search_concat = false;
  std::uint64_t m_blocks = 0;
  const buffer* m_offsets_buf = nullptr;
};

/// The frame of the algorithms that scan the invalid flags in each block and then run one search
/// dispatch over the scan (Horn, Jumping Jack): phases `scan`, `search`.
class scan_then_search : public block_compaction {
protected:
  /// `shader`: the search pass; `bound`: its loop's proven bound (trips), also its cap.
  void prepare_search(std::string shader, std::uint32_t bound);
  VkDeviceAddress run_in_block(timer& t) override;
  count_source counts_from() const override { return count_source::invalid_scan; }

private:
  std::string m_shader;
  std::unique_ptr<segmented_scan> m_scan_passes;
};

} // namespace winnow::vk
