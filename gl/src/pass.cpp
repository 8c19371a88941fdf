#include "winnow/gl/pass.hpp"

namespace winnow::gl {

pass_runner::pass_runner() {
  // Fixed state for every pass: nothing but the fragment shader decides what is written.
  glDisable(GL_BLEND);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_DITHER);
  glDisable(GL_MULTISAMPLE);
  glDisable(GL_SCISSOR_TEST);
  glDisable(GL_CULL_FACE);
}

void pass_runner::draw(const program& p, const framebuffer& target, int width, int height, double reads) {
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, target.id());
  glViewport(0, 0, width, height);
  glUseProgram(p.id());
  glBindVertexArray(m_vao.id());
  glDrawArrays(GL_TRIANGLES, 0, 3);
  const auto texels = static_cast<std::uint64_t>(width) * static_cast<std::uint64_t>(height);
  count_pass(static_cast<std::uint64_t>(reads * static_cast<double>(texels)), texels);
}

void pass_runner::count_pass(std::uint64_t texels_read, std::uint64_t texels_written) {
  ++m_passes;
  m_read += texels_read;
  m_written += texels_written;
}

void bind(int unit, const texture& t) { glBindTextureUnit(static_cast<GLuint>(unit), t.id()); }

void set(const program& p, int location, int value) { glProgramUniform1i(p.id(), location, value); }

} // namespace winnow::gl
