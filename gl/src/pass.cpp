#include "winnow/gl/pass.hpp"

#include "api.hpp"

namespace winnow::gl {

void set_pass_state() {
  glDisable(GL_BLEND);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_DITHER);
  api::disable_multisample();
  glDisable(GL_SCISSOR_TEST);
  glDisable(GL_CULL_FACE);
}

pass_runner::pass_runner() { set_pass_state(); }

void pass_runner::draw(const program& p, const framebuffer& target, int width, int height) {
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, target.id());
  glViewport(0, 0, width, height);
  glUseProgram(p.id());
  glBindVertexArray(m_vao.id());
  glDrawArrays(GL_TRIANGLES, 0, 3);
  ++m_passes;
}

void bind(int unit, const texture& t) {
  glActiveTexture(static_cast<GLenum>(GL_TEXTURE0 + unit));
  glBindTexture(GL_TEXTURE_2D, t.id());
}

} // namespace winnow::gl
