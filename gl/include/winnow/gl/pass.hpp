#pragma once
/// A pass is one full-viewport draw into an FBO: the fragment shader reads textures and writes only
/// its own texel (gather only), viewport = target size, no blending, depth or multisampling.
#include <cstdint>

#include "winnow/gl/objects.hpp"

namespace winnow::gl {

/// Draws passes and keeps the tally the records report: passes, texels read and written.
class pass_runner {
public:
  pass_runner();
  /// One full-viewport triangle with `p` into `target` (width × height texels). `reads` is the number
  /// of distinct input texels per output texel, for the traffic model: a texel fetched again by a
  /// neighbour or by the next step of a search is a texture-cache hit, not memory traffic (a
  /// Hillis-Steele pass reads 1, an up-sweep pass 2, Horn's search 2: the stream and the scan).
  void draw(const program& p, const framebuffer& target, int width, int height, double reads);
  /// Any other draw (the line-rendered concatenation): counted as one pass.
  void count_pass(std::uint64_t texels_read, std::uint64_t texels_written);
  void reset_tally() { m_passes = m_read = m_written = 0; }
  [[nodiscard]] std::uint64_t passes() const { return m_passes; }
  [[nodiscard]] std::uint64_t bytes_read() const { return 4 * m_read; }
  [[nodiscard]] std::uint64_t bytes_written() const { return 4 * m_written; }
  [[nodiscard]] GLuint vertex_array_id() const { return m_vao.id(); }

private:
  vertex_array m_vao;
  std::uint64_t m_passes = 0, m_read = 0, m_written = 0;
};

/// Binds `t` to texture unit `unit`.
void bind(int unit, const texture& t);
/// Sets an int uniform at an explicit location.
void set(const program& p, int location, int value);

} // namespace winnow::gl
