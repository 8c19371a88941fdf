#pragma once
// Block-based compaction (ALGORITHMS.md §8), the frame every gl algorithm runs in:
//   [mark]   removal-list cases: GL_POINTS at the indices of R write payload 0 into the stream
//   in-block the algorithm (Horn, Binary-Tree, …) compacts each block of B texels of a row in place
//            of a copy: block b's v_b survivors at [bB, bB + v_b)
//   count    per-block counts into a stream of nb values, then their exclusive scan (stream_scan)
//   concat   one draw of two lines (or two rectangles) per block writes block b's survivors at
//            off[b] of the output
// The algorithm subclasses fill in the in-block step and name where the counts come from.
#include <memory>
#include <optional>

#include "layout.hpp"
#include "scan.hpp"
#include "winnow/algorithm.hpp"
#include "winnow/gl/pass.hpp"

namespace winnow::gl {

/// Parameter axes every gl algorithm shares.
[[nodiscard]] param_axis block_axis();
[[nodiscard]] param_axis scan_axis();
/// `sweep_both`: the conformance sweep covers rects too (both are always accepted).
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
  /// Where count pass reads each block's count: B − the last in-block inclusive scan of the
  /// invalid flags, or a texture of one count per block (the Binary-Tree's top level).
  enum class count_source { invalid_scan, per_block };
  virtual void prepare_in_block(const params& p) = 0;
  /// Records the in-block passes (marking its phases) into `out_fbo` (the compacted texture).
  /// Returns the texture the count pass reads.
  virtual const texture& run_in_block(timer& t, const framebuffer& out_fbo) = 0;
  [[nodiscard]] virtual count_source counts_from() const = 0;

  /// The frame's geometry, valid in prepare_in_block.
  stream_layout m_layout;
  int m_block = 0, m_log2_block = 0;
  scan_kind m_scan = scan_kind::hillis;
  texture m_data;
  pass_runner m_runner;
  /// With WINNOW_GL_LOOP_CHECK=1 (the tests), the in-block pass that writes the compacted texture
  /// also writes each fragment's loop trips to a second target; result() fails when one exceeded
  /// m_loop_bound, the bound ALGORITHMS.md proves. Shaders get `#define WINNOW_LOOP_CHECK`.
  bool m_loop_check = false;
  int m_loop_bound = 0;
  [[nodiscard]] std::string loop_check_define() const { return m_loop_check ? "#define WINNOW_LOOP_CHECK 1\n" : ""; }

private:
  const workload* m_w = nullptr;
  std::vector<std::uint32_t> m_padded;
  stream_layout m_counts_layout, m_removals_layout;
  texture m_compacted, m_counts, m_output, m_removals;
  std::unique_ptr<texture> m_trips;
  framebuffer m_compacted_fbo, m_counts_fbo, m_output_fbo, m_data_fbo;
  std::unique_ptr<stream_scan> m_offsets;
  program m_count_prog, m_concat_prog, m_mark_prog;
  bool m_rects = false;
  std::uint64_t m_blocks = 0;
  const texture* m_offsets_tex = nullptr;
};

/// The frame of the algorithms that scan the invalid flags in each block and then run one search
/// pass over the scan (Horn, Jumping Jack): phases `scan`, `search`.
class scan_then_search : public block_compaction {
protected:
  /// `shader`: the search pass; `bound`: its loop's proven bound (trips); `cap_location`: the
  /// uniform that gets log2 B as the loop's cap, or -1 (GL ignores a uniform set at -1).
  void prepare_search(const char* shader, int bound, int cap_location);
  const texture& run_in_block(timer& t, const framebuffer& out) override;
  count_source counts_from() const override { return count_source::invalid_scan; }

private:
  std::unique_ptr<segmented_scan> m_scan_passes;
  program m_search;
  int m_cap_location = -1;
};

} // namespace winnow::gl
