#include "scan.hpp"

namespace winnow::gl {

segmented_scan::segmented_scan(int width, int height, int seg, scan_kind kind)
    : m_width(width), m_height(height), m_seg(seg), m_log2_seg(log2_exact(static_cast<std::uint64_t>(seg))), m_kind(kind) {
  // One-texel segments need at most one pass (to apply the map): a Hillis-Steele pass that adds nothing.
  if (kind == scan_kind::hillis || m_log2_seg == 0) {
    m_hillis = program("fullscreen.vert", "scan_hillis.frag");
    m_ping.push_back(make_level(width));
    if (m_log2_seg > 1) m_ping.push_back(make_level(width));
  } else {
    m_up_prog = program("fullscreen.vert", "scan_up.frag");
    m_down_prog = program("fullscreen.vert", "scan_down.frag");
    for (int p = 1; p <= m_log2_seg; ++p) m_up.push_back(make_level(width >> p));
    for (int p = 0; p < m_log2_seg; ++p) m_down.push_back(make_level(width >> p));
  }
}

segmented_scan::level segmented_scan::make_level(int width) {
  level l{texture(texel_format::r32ui, width, m_height), {}};
  l.fbo = framebuffer({&l.tex});
  return l;
}

const texture& segmented_scan::run(pass_runner& r, const texture& src, value_map map) {
  const int m = static_cast<int>(map);
  if (m_log2_seg == 0) {
    if (map == value_map::identity) return src;
    bind(0, src);
    set(m_hillis, 0, 1); // offset 1 ≥ the segment: nothing is added
    set(m_hillis, 1, 1);
    set(m_hillis, 2, m);
    r.draw(m_hillis, m_ping[0].fbo, m_width, m_height, 1);
    return m_ping[0].tex;
  }
  if (m_kind == scan_kind::hillis) {
    const texture* in = &src;
    for (int k = 0; k < m_log2_seg; ++k) {
      level& out = m_ping[static_cast<std::size_t>(k % 2)];
      bind(0, *in);
      set(m_hillis, 0, 1 << k);
      set(m_hillis, 1, m_seg);
      set(m_hillis, 2, k == 0 ? m : 0);
      r.draw(m_hillis, out.fbo, m_width, m_height, 1);
      in = &out.tex;
    }
    return *in;
  }
  // Blelloch: up-sweep to one node per segment, then down-sweep back to full width.
  for (int p = 1; p <= m_log2_seg; ++p) {
    bind(0, p == 1 ? src : m_up[static_cast<std::size_t>(p - 2)].tex);
    set(m_up_prog, 0, p == 1 ? m : 0);
    r.draw(m_up_prog, m_up[static_cast<std::size_t>(p - 1)].fbo, m_width >> p, m_height, 2);
  }
  for (int p = m_log2_seg; p >= 1; --p) {
    const bool top = p == m_log2_seg;
    const texture& sibling = p == 1 ? src : m_up[static_cast<std::size_t>(p - 2)].tex;
    bind(0, top ? sibling : m_down[static_cast<std::size_t>(p)].tex);
    bind(1, sibling);
    set(m_down_prog, 0, top ? 1 : 0);
    set(m_down_prog, 1, p == 1 ? 1 : 0);
    set(m_down_prog, 2, p == 1 ? m : 0);
    r.draw(m_down_prog, m_down[static_cast<std::size_t>(p - 1)].fbo, m_width >> (p - 1), m_height, top ? 1 : 1.5);
  }
  return m_down[0].tex;
}

stream_scan::stream_scan(const stream_layout& layout, scan_kind kind, int max_width)
    : m_layout(layout), m_rows(layout.width, layout.height, layout.width, kind),
      m_out(texel_format::r32ui, layout.width, layout.height) {
  m_out_fbo = framebuffer({&m_out});
  m_finish = program("fullscreen.vert", "scan_finish.frag");
  if (layout.height > 1) {
    m_gather = program("fullscreen.vert", "scan_gather.frag");
    m_totals_layout = layout_for(static_cast<std::uint64_t>(layout.height), 1, max_width);
    m_totals = std::make_unique<texture>(texel_format::r32ui, m_totals_layout.width, m_totals_layout.height);
    m_totals_fbo = std::make_unique<framebuffer>(std::vector<const texture*>{m_totals.get()});
    m_totals_scan = std::make_unique<stream_scan>(m_totals_layout, kind, max_width);
  }
}

const texture& stream_scan::run(pass_runner& r, const texture& src) {
  const texture& inclusive = m_rows.run(r, src, value_map::identity);
  const texture* row_offsets = &src;
  if (m_totals_scan) {
    bind(0, inclusive);
    set(m_gather, 0, m_totals_layout.log2_width);
    set(m_gather, 1, m_layout.height);
    r.draw(m_gather, *m_totals_fbo, m_totals_layout.width, m_totals_layout.height, 1);
    row_offsets = &m_totals_scan->run(r, *m_totals);
  }
  bind(0, inclusive);
  bind(1, src);
  bind(2, *row_offsets);
  set(m_finish, 0, m_totals_scan ? 1 : 0);
  set(m_finish, 1, m_totals_scan ? m_totals_layout.log2_width : 0);
  r.draw(m_finish, m_out_fbo, m_layout.width, m_layout.height, 2);
  return m_out;
}

} // namespace winnow::gl
