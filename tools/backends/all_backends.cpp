#include "winnow/backends.hpp"

#if WINNOW_HAVE_GL
#include "winnow/gl/backend.hpp"
#endif
#if WINNOW_HAVE_VULKAN
#include "winnow/vulkan/backend.hpp"
#endif
#if WINNOW_HAVE_CUDA
#include "winnow/cuda/backend.hpp"
#endif

#include <vector>

namespace winnow {
namespace {
std::vector<std::function<void(registry&)>>& extensions() {
  static std::vector<std::function<void(registry&)>> e;
  return e;
}
} // namespace

void extend_all_backends(std::function<void(registry&)> add) { extensions().push_back(std::move(add)); }

const registry& all_backends() {
  static const registry reg = [] {
    registry r;
    cpu::register_backend(r);
    // A built GPU backend registers itself (and probes for a device when asked); one whose folder
    // exists but was not built is listed with the reason, so `winnow list` and the tests say why.
#if WINNOW_HAVE_GL
    gl::register_backend(r);
#elif defined(WINNOW_GL_MISSING)
    r.add_unavailable("gl", "OpenGL 4.5 fragment shaders over FBOs, headless EGL", WINNOW_GL_MISSING);
#endif
#if WINNOW_HAVE_VULKAN
    vk::register_backend(r);
#elif defined(WINNOW_VULKAN_MISSING)
    r.add_unavailable("vk", "Vulkan compute passes", WINNOW_VULKAN_MISSING);
    r.add_unavailable("vkfrag", "Vulkan fragment passes", WINNOW_VULKAN_MISSING);
#endif
#if WINNOW_HAVE_CUDA
    cuda::register_backend(r);
#elif defined(WINNOW_CUDA_MISSING)
    r.add_unavailable("cuda", "CUDA kernels, CUB and thrust", WINNOW_CUDA_MISSING);
#endif
    for (const auto& add : extensions()) add(r);
    return r;
  }();
  return reg;
}

} // namespace winnow
