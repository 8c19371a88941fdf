#include "global_scan.hpp"

#include <utility>

#include "dispatch/scan.hpp"

namespace winnow::cuda {

global_scan::global_scan(scan_kind kind, std::size_t n, unsigned block, cudaStream_t stream)
    : m_kind(kind), m_n(n), m_block(kind == scan_kind::thrust ? 0u : block) {
  if (m_kind != scan_kind::thrust) check_scan_block(m_block);
  switch (m_kind) {
  case scan_kind::blelloch: {
    // Level l + 1 holds the block totals of level l, until one block covers a level.
    const std::size_t per_block = blelloch_block_elements(m_block);
    for (std::size_t size = m_n; size > per_block;) {
      size = (size + per_block - 1) / per_block;
      m_levels.emplace_back(size);
    }
    break;
  }
  case scan_kind::hillis:
    m_ping.resize(m_n);
    for (std::size_t offset = 1; offset < m_n; offset <<= 1) ++m_passes;
    break;
  case scan_kind::thrust:
    m_ping.resize(m_n);
    // thrust's temporary storage depends on n and the types alone, so an in-place call over m_ping
    // sizes it for run()'s out-of-place one (a larger request there would throw, never allocate).
    size_arena(m_arena, m_arena_memory, [&] {
      if (m_n) thrust_exclusive_scan(m_arena, m_ping.get(), m_ping.get(), m_n, stream);
    });
    break;
  }
}

const std::uint32_t* global_scan::run(std::uint32_t* d_data, cudaStream_t stream) {
  if (m_n == 0) return d_data;
  switch (m_kind) {
  case scan_kind::thrust: thrust_exclusive_scan(m_arena, d_data, m_ping.get(), m_n, stream); return m_ping.get();
  case scan_kind::hillis: {
    std::uint32_t* in = d_data;
    std::uint32_t* out = m_ping.get();
    for (std::size_t offset = 1; offset < m_n; offset <<= 1) {
      launch_hillis_pass(out, in, m_n, offset, m_block, stream);
      std::swap(in, out);
    }
    return in;
  }
  case scan_kind::blelloch: {
    // Level 0 is the data, level l + 1 the block totals of level l (m_levels[l]): nothing is allocated
    // between the launches of a timed run.
    const std::size_t top = m_levels.size();
    const auto level = [&](std::size_t l) { return l == 0 ? d_data : m_levels[l - 1].get(); };
    const auto count = [&](std::size_t l) { return l == 0 ? m_n : m_levels[l - 1].size(); };
    // Up the levels: scan each block, its total into the next level; the top level is one block.
    for (std::size_t l = 0; l <= top; ++l)
      launch_blelloch_blocks(level(l), level(l), l < top ? level(l + 1) : nullptr, count(l), m_block, stream);
    // Down: every block adds the exclusive sum of the blocks before it.
    for (std::size_t l = top; l-- > 0;) launch_add_block_sums(level(l), level(l + 1), count(l), m_block, stream);
    return d_data;
  }
  }
  return nullptr;
}

std::uint64_t global_scan::launches() const {
  if (m_n == 0) return 0;
  switch (m_kind) {
  case scan_kind::thrust: return 1;
  case scan_kind::hillis: return m_passes;
  case scan_kind::blelloch: return 2 * m_levels.size() + 1;
  }
  return 0;
}

traffic global_scan::bytes() const {
  const std::uint64_t n = m_n;
  switch (m_kind) {
  case scan_kind::blelloch: {
    std::uint64_t size = n, read = 4 * n, written = 4 * n;
    for (const auto& level : m_levels) {
      // scanning level l writes its sums (level l + 1); adding them back reads and writes level l
      read += 4 * level.size() + 4 * size + 4 * size / blelloch_block_elements(m_block);
      written += 4 * level.size() + 4 * size;
      size = level.size();
    }
    return {read, written, 0};
  }
  case scan_kind::hillis: return {8 * n * m_passes, 4 * n * m_passes, 0};
  case scan_kind::thrust:
    return {4 * n, 4 * n, 0}; // the least a scan moves: the values read once, the sums written once
  }
  return {};
}

} // namespace winnow::cuda
