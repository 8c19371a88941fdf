#include "winnow/backends.hpp"

namespace winnow {

const registry& all_backends() {
  static const registry reg = [] {
    registry r;
    cpu::register_backend(r);
    // GPU backends join here as their folders land: `#if WINNOW_HAVE_GL gl::register_backend(r);`
    // `#elif defined(WINNOW_GL_MISSING) r.add_unavailable("gl", …, WINNOW_GL_MISSING);`.
    return r;
  }();
  return reg;
}

} // namespace winnow
