// The GL constants of the pass model (measured / (bytes / copy bandwidth + passes × empty pass)),
// measured by the executor the algorithms run on (shader_era/calibrate.hpp): a fragment pass that
// does nothing (1 × 1) and the copy pass's bandwidth at 4M and 16M texels, each pass reading what the
// one before wrote (ping-pong: independent passes overlap on the GPU and would understate the cost),
// timed with GL_TIMESTAMP queries. On desktop GL also gl/geometry's transform-feedback draw taken
// apart (geometry.hpp): Billeter et al.'s report reads it to say where that compactor's time goes.
#include "calibrate.hpp"

#include <exception>
#include <iostream>

#include "geometry.hpp"
#include "winnow/gl/context.hpp"
#include "winnow/gl/executor.hpp"
#include "winnow/shader_era/calibrate.hpp"

namespace winnow::gl {

std::vector<calibration> calibrate() {
  executor x;
  const context_info& info = context::get().info();
  auto out = shader_era::pass_model_calibration(x, param_set{}, "GL fragment pass (a full-screen triangle into an FBO)",
                                                shader_era::copy_sweep_for(info.software));
  if (info.kind != context_kind::es31) { // ES 3.1 has no geometry shaders
    // Only Billeter et al.'s report reads these: a probe that fails costs its rows, not the pass model.
    try {
      auto feedback = feedback_calibration(info.software);
      out.insert(out.end(), feedback.begin(), feedback.end());
    } catch (const std::exception& e) {
      std::cerr << "gl calibrate: the geometry shader's draw was not taken apart: " << e.what() << "\n";
    }
  }
  context::get().check("winnow::gl::calibrate");
  return out;
}

} // namespace winnow::gl
