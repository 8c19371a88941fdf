#include "winnow/gl/check.hpp"

#include <string>

#include "winnow/error.hpp"

namespace winnow::gl {
namespace {
// GL 4.5's and ES 3.2's (KHR_robustness's) GL_CONTEXT_LOST, by value: the ES 3.1 header lacks it.
constexpr GLenum context_lost_error = 0x0507;
} // namespace

std::string_view error_name(GLenum e) {
  switch (e) {
  case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
  case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
  case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
  case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
  case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
  case 0x0504: return "GL_STACK_UNDERFLOW"; // KHR_debug's, by value: GL and ES name them differently
  case 0x0503: return "GL_STACK_OVERFLOW";
  case context_lost_error: return "GL_CONTEXT_LOST";
  default: break;
  }
  thread_local std::string other;
  char hex[16];
  std::snprintf(hex, sizeof hex, "%x", e);
  other = std::string("GL error 0x") + hex;
  return other;
}

void check_error(std::string_view call, source_location where) {
  const GLenum e = glGetError();
  if (e == GL_NO_ERROR) return;
  // Later errors are dropped: the first one is what the call caused. GL keeps one flag per error
  // code, so a few calls clear them; the bound stops a lost context that reports its loss again.
  for (int flags = 0; flags < 16 && glGetError() != GL_NO_ERROR; ++flags) {}
  throw_error(e, call, where);
}

void throw_error(GLenum e, std::string_view call, source_location where) {
  if (e == context_lost_error) throw_context_lost(call, error_name(e), where);
  throw_call_error(call, error_name(e), where);
}

} // namespace winnow::gl
