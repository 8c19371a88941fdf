#include "winnow/gl/backend.hpp"

#include "calibrate.hpp"
#include "geometry.hpp"
#include "winnow/gl/context.hpp"
#include "winnow/gl/executor.hpp"

namespace winnow::gl {

void register_backend(registry& r) {
  backend b;
  b.api = "gl";
  b.summary = "OpenGL 4.5 core, 3.3 core or ES 3.1 (WINNOW_GL_CONTEXT): GLSL fragment shaders over FBOs, headless EGL "
              "(the shader era)";
  b.unavailable_reason = [] { return gl::unavailable_reason(); };
  b.device = [] {
    const context_info& i = context::get().info();
    // The context asked for names the path that ran (a driver may give a later version for it).
    // GL_VERSION is "4.5 (Core Profile) Mesa …" on GL, "OpenGL ES 3.2 Mesa …" on ES.
    const std::string version = i.version.starts_with("OpenGL") ? i.version : "OpenGL " + i.version;
    return device_info{i.renderer,
                       version + " (" + std::string(to_string(i.kind)) + " context, " + i.vendor + ", " + i.platform +
                           (i.debug ? ", debug context" : "") + ")",
                       i.identity.empty() ? std::nullopt : std::optional<device_identity>(i.identity)};
  };
  b.calibrate = [] { return gl::calibrate(); };
  b.algorithms = shader_era::entries("gl",
                                     {shader_era::concat_method::stacks, shader_era::concat_method::automatic,
                                      shader_era::concat_method::lines, shader_era::concat_method::rects},
                                     [] { return std::make_unique<executor>(); });
  b.algorithms.push_back(shader_era::histopyramid_entry("gl", [] { return std::make_unique<executor>(); }));
  b.algorithms.push_back(geometry_entry());
  r.add(std::move(b));
}

} // namespace winnow::gl
