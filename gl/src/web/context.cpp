// The web build's context (WINNOW_WEB; in place of gl/src/context.cpp, which is EGL's): a WebGL 2
// context — OpenGL ES 3.0 — on a canvas of the page, made by Emscripten's html5 API. The backend then
// runs as on an ES context without compute shaders or conditional rendering: the device check falls
// back to the host (as on a 3.3 context), reads within a run take the plain read, shaders get ESSL 3.00
// (objects.cpp, graphics.glsl's WINNOW_GL33 branch), and phases are timed by timer queries where the
// browser offers EXT_disjoint_timer_query_webgl2 (timestamps, or elapsed time where it has none). WebGL makes a query's
// result available only after the page's task returns to the browser, so timer_query::read yields to it
// (emscripten_sleep: the module is built with Asyncify); without the extension, finish_timer (glFinish,
// performance.now()).
#include <emscripten/html5.h>

#include <string>

#include "api.hpp"
#include "winnow/error.hpp"
#include "winnow/gl/check.hpp"
#include "winnow/gl/context.hpp"

namespace winnow::gl {
namespace {

std::string& canvas() {
  static std::string selector = "#canvas";
  return selector;
}

context*& the_context() {
  static context* instance = nullptr;
  return instance;
}

std::string text(GLenum name) {
  const auto* s = reinterpret_cast<const char*>(glGetString(name));
  return s ? s : "";
}

} // namespace

void use_canvas(std::string selector) {
  if (the_context()) throw error("winnow::gl::use_canvas: the WebGL 2 context exists already");
  canvas() = std::move(selector);
}

std::vector<context_kind> requested_contexts() { return {context_kind::es30}; }

context::context() {
  EmscriptenWebGLContextAttributes a;
  emscripten_webgl_init_context_attributes(&a);
  a.majorVersion = 2;
  a.minorVersion = 0;
  a.alpha = false;
  a.depth = false;
  a.stencil = false;
  a.antialias = false; // the passes draw into their own targets; nothing is blended or resolved
  a.preserveDrawingBuffer = false;
  a.powerPreference = EM_WEBGL_POWER_PREFERENCE_HIGH_PERFORMANCE;
  const EMSCRIPTEN_WEBGL_CONTEXT_HANDLE handle = emscripten_webgl_create_context(canvas().c_str(), &a);
  if (handle <= 0)
    throw unavailable("winnow::gl: no WebGL 2 context on the canvas '" + canvas() +
                      "' (emscripten_webgl_create_context: " + std::to_string(handle) + ")");
  if (emscripten_webgl_make_context_current(handle) != EMSCRIPTEN_RESULT_SUCCESS)
    throw unavailable("winnow::gl: the WebGL 2 context on '" + canvas() + "' could not be made current");
  m_context = reinterpret_cast<void*>(static_cast<std::intptr_t>(handle));
  m_info.kind = context_kind::es30;
  m_info.platform = "WebGL 2 (canvas " + canvas() + ")";
  api::set_es(true);
  m_info.vendor = text(GL_VENDOR);
  m_info.renderer = text(GL_RENDERER);
  m_info.version = text(GL_VERSION);
  // The GPU behind the browser, where it says (WEBGL_debug_renderer_info: its renderer is the
  // driver's, GL_RENDERER the browser's "WebKit WebGL").
  if (emscripten_webgl_enable_extension(handle, "WEBGL_debug_renderer_info")) {
    constexpr GLenum unmasked_vendor = 0x9245, unmasked_renderer = 0x9246;
    if (const std::string v = text(unmasked_vendor); !v.empty()) m_info.vendor = v;
    if (const std::string r = text(unmasked_renderer); !r.empty()) m_info.renderer = r;
  }
  m_info.software = m_info.renderer.find("SwiftShader") != std::string::npos;
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &m_info.max_texture_size);
  // Timer queries where the browser offers EXT_disjoint_timer_query_webgl2 (timestamps where its
  // counter has bits, else elapsed-time queries):
  // their results come only between the page's tasks, so timer_query waits for them by yielding to
  // the browser (Asyncify); else finish_timer.
  GLAD_GL_EXT_disjoint_timer_query = emscripten_webgl_enable_extension(handle, "EXT_disjoint_timer_query_webgl2");
  m_info.timestamp_bits = api::timestamp_bits();
  if (m_info.timestamp_bits == 0) m_info.elapsed_bits = api::elapsed_bits(); // SwiftShader: 0 and 64
  glGetIntegerv(GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT, &m_info.uniform_offset_alignment);
  glGetIntegerv(GL_MAX_DRAW_BUFFERS, &m_info.max_draw_buffers);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  check("winnow::gl::context");
}

context::context(std::string, GLADloadfunc) {
  throw error("winnow::gl::context: the web build makes its own WebGL 2 context (use_canvas)");
}

void context::set_up(GLADloadfunc) {}

context::~context() {
  (void)m_display; // EGL's
  if (m_context)
    emscripten_webgl_destroy_context(
        static_cast<EMSCRIPTEN_WEBGL_CONTEXT_HANDLE>(reinterpret_cast<std::intptr_t>(m_context)));
}

context& context::get() {
  if (!the_context()) the_context() = new context();
  return *the_context();
}

void context::adopt(std::string platform, GLADloadfunc load) { (void)context(std::move(platform), load); }

void context::check(std::string_view where) {
  std::vector<std::string> errors;
  for (GLenum e; (e = glGetError()) != GL_NO_ERROR;) {
    errors.push_back("glGetError: " + std::string(error_name(e)));
    if (e == 0x0507 || errors.size() > 16) break; // a lost context reports its loss again
  }
  if (errors.empty()) return;
  std::string msg(where);
  msg += ": ";
  for (std::size_t i = 0; i < errors.size(); ++i) msg += (i ? "; " : "") + errors[i];
  throw error(msg);
}

std::vector<std::string> take_debug_errors() { return {}; }

void record_debug_groups(bool) { throw error("winnow::gl: debug groups are reported only on a debug context"); }

std::vector<std::string> take_debug_groups() { return {}; }

std::optional<std::string> unavailable_reason() {
  try {
    (void)context::get();
    return std::nullopt;
  } catch (const unavailable& e) { return e.what(); }
}

} // namespace winnow::gl
