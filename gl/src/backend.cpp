#include "winnow/gl/backend.hpp"

#include "algorithms.hpp"
#include "calibrate.hpp"
#include "winnow/gl/context.hpp"

namespace winnow::gl {

void register_backend(registry& r) {
  backend b;
  b.api = "gl";
  b.summary = "OpenGL 4.5 core: GLSL fragment shaders over FBOs, headless EGL (the shader era)";
  b.unavailable_reason = [] { return gl::unavailable_reason(); };
  b.device = [] {
    const context_info& i = context::get().info();
    return device_info{i.renderer, "OpenGL " + i.version + " (" + i.vendor + ", " + i.platform + ")"};
  };
  b.calibrate = [] { return gl::calibrate(); };
  b.algorithms = {horn_entry(), jumping_jack_entry(), rlz_entry(), binary_tree_entry()};
  r.add(std::move(b));
}

} // namespace winnow::gl
