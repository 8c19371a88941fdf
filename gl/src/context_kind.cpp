// The names of the context kinds, shared by EGL's context (context.cpp) and the web build's
// (web/context.cpp), which each make their own kinds.
#include "winnow/gl/context.hpp"

namespace winnow::gl {

std::string_view to_string(context_kind k) {
  switch (k) {
  case context_kind::gl45: return "gl45";
  case context_kind::gl33: return "gl33";
  case context_kind::es31: return "es31";
  case context_kind::es30: return "es30";
  }
  return "?";
}

} // namespace winnow::gl
