#pragma once
/// WINNOW_GL_CHECK(call): runs a GL call and throws winnow::error (winnow::context_lost for
/// GL_CONTEXT_LOST) with file:line, the call's text and the error's name when glGetError reports one
/// afterwards (Magnum's MAGNUM_VERIFY_NO_GL_ERROR,
/// per call). Debug builds check so after every draw; the debug context (--debug) reports the rest.
#include <glad/gl.h>

#include <string_view>

#include "winnow/compat.hpp"

namespace winnow::gl {

/// "GL_INVALID_OPERATION"; "GL error 0x…" for others.
[[nodiscard]] std::string_view error_name(GLenum e);
/// Throws when glGetError has an error pending, naming `call` and where.
void check_error(std::string_view call, source_location where = source_location::current());
/// What check_error throws for error `e`: context_lost for GL_CONTEXT_LOST (the context was reset:
/// nothing more runs on it in this process), error for the others.
[[noreturn]] void throw_error(GLenum e, std::string_view call, source_location where = source_location::current());

} // namespace winnow::gl

#define WINNOW_GL_CHECK(call)                                                                                          \
  do {                                                                                                                 \
    call;                                                                                                              \
    ::winnow::gl::check_error(#call);                                                                                  \
  } while (false)
