#include "scan.hpp"

namespace winnow::vk {

segmented_scan::segmented_scan(std::uint64_t size, std::uint32_t seg, scan_kind kind)
    : m_size(size), m_seg(seg), m_log2_seg(log2_exact(seg)), m_kind(kind) {
  // One-element segments need at most one pass (to apply the map): a Hillis-Steele pass that adds nothing.
  if (kind == scan_kind::hillis || m_log2_seg == 0) {
    m_ping[0] = buffer("scan ping", 4 * size);
    if (m_log2_seg > 1) m_ping[1] = buffer("scan pong", 4 * size);
  } else {
    m_up = buffer("scan up-sweep levels", 4 * size);
    m_down = buffer("scan down-sweep levels", 4 * size);
    m_d0 = buffer("scan result", 4 * size);
  }
}

const buffer& segmented_scan::run(pass_runner& r, const buffer& src, value_map map) {
  const auto m = static_cast<std::uint32_t>(map);
  const std::uint32_t local = default_local_size();
  if (m_log2_seg == 0) {
    if (map == value_map::identity) return src;
    pass_args a;
    a.a = src.address();
    a.dst = m_ping[0].address();
    a.k0 = 1; // offset 1 ≥ the segment: nothing is added
    a.k1 = 1;
    a.k2 = m;
    r.run(shader("scan_hillis", local), a, m_size, 1);
    return m_ping[0];
  }
  if (m_kind == scan_kind::hillis) {
    const pipeline& p = shader("scan_hillis", local);
    const buffer* in = &src;
    for (std::uint32_t k = 0; k < m_log2_seg; ++k) {
      const buffer& out = m_ping[k % 2];
      pass_args a;
      a.a = in->address();
      a.dst = out.address();
      a.k0 = 1u << k;
      a.k1 = m_seg;
      a.k2 = k == 0 ? m : 0;
      r.run(p, a, m_size, 1);
      in = &out;
    }
    return *in;
  }
  // Blelloch: up-sweep to one node per segment, then down-sweep back to full size.
  const pipeline& up = shader("scan_up", local);
  const pipeline& down = shader("scan_down", local);
  const auto u = [&](std::uint32_t p) { return m_up.address(4 * level_offset(m_size, p)); };
  const auto d = [&](std::uint32_t p) { return p == 0 ? m_d0.address() : m_down.address(4 * level_offset(m_size, p)); };
  for (std::uint32_t p = 1; p <= m_log2_seg; ++p) {
    pass_args a;
    a.a = p == 1 ? src.address() : u(p - 1);
    a.dst = u(p);
    a.k1 = m_seg;
    a.k2 = p == 1 ? m : 0;
    r.run(up, a, m_size >> p, 2);
  }
  for (std::uint32_t p = m_log2_seg; p >= 1; --p) {
    const bool top = p == m_log2_seg;
    pass_args a;
    a.a = top ? 0 : d(p);
    a.b = p == 1 ? src.address() : u(p - 1);
    a.dst = d(p - 1);
    a.k0 = (top ? 1u : 0u) | (p == 1 ? 2u : 0u);
    a.k1 = m_seg;
    a.k2 = p == 1 ? m : 0;
    r.run(down, a, m_size >> (p - 1), top ? 1 : 1.5);
  }
  return m_d0;
}

stream_scan::stream_scan(const stream_layout& layout, scan_kind kind)
    : m_layout(layout), m_rows(layout.size(), layout.width, kind), m_out("stream scan", 4 * layout.size()) {
  if (layout.height > 1) {
    m_totals_layout = layout_for(layout.height, 1);
    m_totals = buffer("stream scan row totals", 4 * m_totals_layout.size());
    m_totals_scan = std::make_unique<stream_scan>(m_totals_layout, kind);
  }
}

const buffer& stream_scan::run(pass_runner& r, const buffer& src) {
  const std::uint32_t local = default_local_size();
  const buffer& inclusive = m_rows.run(r, src, value_map::identity);
  const buffer* row_offsets = nullptr;
  if (m_totals_scan) {
    pass_args a;
    a.a = inclusive.address();
    a.dst = m_totals.address();
    a.k0 = m_layout.width;
    a.k1 = m_layout.height;
    r.run(shader("scan_gather", local), a, m_totals_layout.size(), 1);
    row_offsets = &m_totals_scan->run(r, m_totals);
  }
  pass_args a;
  a.a = inclusive.address();
  a.b = src.address();
  a.c = row_offsets ? row_offsets->address() : 0;
  a.dst = m_out.address();
  a.k0 = m_layout.log2_width;
  a.k1 = row_offsets ? 1 : 0;
  r.run(shader("scan_finish", local), a, m_layout.size(), 2);
  return m_out;
}

} // namespace winnow::vk
