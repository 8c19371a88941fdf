#pragma once
// Prefix sums as passes (ALGORITHMS.md §2, §3), segmented: every segment is `seg` consecutive
// elements (a power of two), so no pass carries across segments. Pass for pass as gl/scan.hpp.
#include <memory>

#include "passes.hpp"
#include "winnow/vulkan/buffer.hpp"

namespace winnow::vk {

enum class scan_kind { hillis, blelloch };

/// What the first pass applies to every value it reads (shaders/common.glsl `mapped`).
enum class value_map : std::uint32_t { identity = 0, invalid_flag = 1, valid_flag = 2, run_start = 3 };

/// The word offset of level p ≥ 1 of a pyramid whose level p holds s >> p words (levels 1, 2, …
/// back to back): s − (s >> (p − 1)).
[[nodiscard]] inline std::uint64_t level_offset(std::uint64_t s, std::uint32_t p) { return s - (s >> (p - 1)); }

/// Inclusive scan of map(src) within segments over `size` elements (a multiple of seg).
/// Hillis-Steele: log2(seg) passes ping-ponging two buffers (the map fused into pass 0).
/// Blelloch: log2(seg) up-sweep passes on levels of size/2^p, then log2(seg) down-sweep passes, the
/// last of which adds the element itself (exclusive → inclusive).
class segmented_scan {
public:
  segmented_scan(std::uint64_t size, std::uint32_t seg, scan_kind kind);
  /// Records the passes; returns the buffer that holds the result (`src` itself when there is
  /// nothing to do).
  const buffer& run(pass_runner& r, const buffer& src, value_map map);

private:
  std::uint64_t m_size;
  std::uint32_t m_seg, m_log2_seg;
  scan_kind m_kind;
  buffer m_ping[2];       // hillis
  buffer m_up, m_down, m_d0; // blelloch: U_1..U_L and D_1..D_{L-1} as pyramids, D_0 apart
};

/// Exclusive scan of a stream laid out by layout_for (padding must hold 0): scan each row, scan
/// the row totals the same way (recursively), add them back. The inter-block offset scan of
/// block-based compaction.
class stream_scan {
public:
  stream_scan(const stream_layout& layout, scan_kind kind);
  const buffer& run(pass_runner& r, const buffer& src);

private:
  stream_layout m_layout;
  segmented_scan m_rows;
  stream_layout m_totals_layout;
  buffer m_totals;
  std::unique_ptr<stream_scan> m_totals_scan;
  buffer m_out;
};

} // namespace winnow::vk
