#pragma once
/// A pass is one full-viewport draw into an FBO: the fragment shader reads textures and writes only
/// its own texel (gather only), viewport = target size, no blending, depth or multisampling.
#include <cstdint>

#include "winnow/gl/objects.hpp"

namespace winnow::gl {

/// Fixes the pass state once and draws full-viewport passes (the engine's tests); the algorithms'
/// passes, and the calibration's, are drawn by the executor, which sets the same state.
class pass_runner {
public:
  pass_runner();
  /// One full-viewport triangle with `p` into `target` (width × height texels).
  void draw(const program& p, const framebuffer& target, int width, int height);
  [[nodiscard]] std::uint64_t passes() const { return m_passes; }

private:
  vertex_array m_vao;
  std::uint64_t m_passes = 0;
};

/// The state every pass draws with: nothing but the fragment shader decides what is written.
void set_pass_state();
/// Binds `t` to texture unit `unit`.
void bind(int unit, const texture& t);

} // namespace winnow::gl
