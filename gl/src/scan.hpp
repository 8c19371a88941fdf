#pragma once
// Prefix sums as passes (ALGORITHMS.md §2, §3), segmented: every segment is `seg` consecutive texels
// of one row (seg a power of two ≤ the texture width), so no pass ever carries across rows.
#include <memory>
#include <vector>

#include "layout.hpp"
#include "winnow/gl/pass.hpp"

namespace winnow::gl {

enum class scan_kind { hillis, blelloch };

/// What the first pass applies to every value it reads.
enum class value_map { identity = 0, invalid_flag = 1, valid_flag = 2 };

/// Inclusive scan of map(src) within segments, on a width × height texture.
/// Hillis-Steele: log2(seg) passes ping-ponging two textures (Horn fuses the flags into pass 0).
/// Blelloch: log2(seg) up-sweep passes on level textures of width W/2^p, then log2(seg) down-sweep
/// passes, the last of which adds the element itself (exclusive → inclusive).
class segmented_scan {
public:
  segmented_scan(int width, int height, int seg, scan_kind kind);
  /// Records the passes; returns the texture that holds the result (`src` itself when there is
  /// nothing to do).
  const texture& run(pass_runner& r, const texture& src, value_map map);

private:
  struct level {
    texture tex;
    framebuffer fbo;
  };
  level make_level(int width);
  int m_width, m_height, m_seg, m_log2_seg;
  scan_kind m_kind;
  std::vector<level> m_ping;        // hillis: 2 full-size; blelloch unused
  std::vector<level> m_up, m_down;  // blelloch: up[p-1] = U_p (p = 1..L), down[p] = D_p (p = 0..L-1)
  program m_hillis, m_up_prog, m_down_prog;
};

/// Exclusive scan of a stream of values laid out by layout_for (padding must hold 0): scan each
/// row, scan the row totals the same way (recursively), add them back. "Recursively when there
/// are many blocks" — this is the inter-block offset scan of block-based compaction.
class stream_scan {
public:
  stream_scan(const stream_layout& layout, scan_kind kind, int max_width);
  const texture& run(pass_runner& r, const texture& src);

private:
  stream_layout m_layout;
  segmented_scan m_rows;
  stream_layout m_totals_layout;
  std::unique_ptr<texture> m_totals;
  std::unique_ptr<framebuffer> m_totals_fbo;
  std::unique_ptr<stream_scan> m_totals_scan;
  texture m_out;
  framebuffer m_out_fbo;
  program m_gather, m_finish;
};

} // namespace winnow::gl
