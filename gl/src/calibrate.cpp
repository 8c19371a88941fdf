// The GL constants of the pass model (measured / (bytes / copy bandwidth + passes × empty pass)),
// measured by the executor the algorithms run on (shader_era/calibrate.hpp): a fragment pass that
// does nothing (1 × 1) and the copy pass's bandwidth at 4M and 16M texels, each pass reading what the
// one before wrote (ping-pong: independent passes overlap on the GPU and would understate the cost),
// timed with GL_TIMESTAMP queries.
#include "calibrate.hpp"

#include "winnow/gl/context.hpp"
#include "winnow/gl/executor.hpp"
#include "winnow/shader_era/calibrate.hpp"

namespace winnow::gl {

std::vector<calibration> calibrate() {
  executor x;
  auto out = shader_era::pass_model_calibration(x, param_set{}, "GL fragment pass (a full-screen triangle into an FBO)");
  context::get().check("winnow::gl::calibrate");
  return out;
}

} // namespace winnow::gl
