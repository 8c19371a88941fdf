#include "winnow/gl/check.hpp"

#include <string>

#include "winnow/error.hpp"

namespace winnow::gl {

std::string_view error_name(GLenum e) {
  switch (e) {
  case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
  case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
  case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
  case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
  case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
  case 0x0504: return "GL_STACK_UNDERFLOW"; // KHR_debug's, by value: GL and ES name them differently
  case 0x0503: return "GL_STACK_OVERFLOW";
  default: break;
  }
  thread_local std::string other;
  char hex[16];
  std::snprintf(hex, sizeof hex, "%x", e);
  other = std::string("GL error 0x") + hex;
  return other;
}

void check_error(std::string_view call, std::source_location where) {
  const GLenum e = glGetError();
  if (e == GL_NO_ERROR) return;
  std::string name(error_name(e));
  // Later errors are dropped: the first one is what the call caused.
  while (glGetError() != GL_NO_ERROR) {}
  throw_call_error(call, name, where);
}

} // namespace winnow::gl
