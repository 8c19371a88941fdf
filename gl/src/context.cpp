#include "winnow/gl/context.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <glad/egl.h>

#include <mutex>

#include "api.hpp"
#include "winnow/error.hpp"
#include "winnow/gl/check.hpp"
#include "winnow/settings.hpp"

namespace winnow::gl {
namespace {

std::vector<std::string>& debug_errors() {
  static std::vector<std::string> errors;
  return errors;
}

/// The application's debug groups as the debug output reports them, while a test records them.
struct group_log {
  bool recording = false;
  std::vector<std::string> entries;
};
group_log& debug_groups() {
  static group_log log;
  return log;
}

void GLAD_API_PTR on_debug(GLenum source, GLenum type, GLuint id, GLenum severity, GLsizei length,
                           const GLchar* message, const void*) {
  (void)severity;
  // Errors fail the run; performance and portability notes do not (llvmpipe is chatty).
  if (type == api::debug_type_error) debug_errors().push_back("GL error " + std::to_string(id) + ": " + message);
  if (debug_groups().recording && source == api::debug_source_application &&
      (type == api::debug_type_push_group || type == api::debug_type_pop_group))
    debug_groups().entries.push_back(
        (type == api::debug_type_push_group ? "push " : "pop ") +
        std::string(message, length < 0 ? std::strlen(message) : static_cast<std::size_t>(length)));
}

std::string egl_error_name(EGLint e) {
  switch (e) {
  case EGL_SUCCESS: return "EGL_SUCCESS";
  case EGL_NOT_INITIALIZED: return "EGL_NOT_INITIALIZED";
  case EGL_BAD_ACCESS: return "EGL_BAD_ACCESS";
  case EGL_BAD_ALLOC: return "EGL_BAD_ALLOC";
  case EGL_BAD_ATTRIBUTE: return "EGL_BAD_ATTRIBUTE";
  case EGL_BAD_CONFIG: return "EGL_BAD_CONFIG";
  case EGL_BAD_CONTEXT: return "EGL_BAD_CONTEXT";
  case EGL_BAD_DISPLAY: return "EGL_BAD_DISPLAY";
  case EGL_BAD_MATCH: return "EGL_BAD_MATCH";
  case EGL_BAD_PARAMETER: return "EGL_BAD_PARAMETER";
  default:
    return "EGL error 0x" + [&] {
      char b[16];
      std::snprintf(b, sizeof b, "%x", e);
      return std::string(b);
    }();
  }
}

bool has_extension(const char* list, std::string_view ext) {
  if (!list) return false;
  std::string_view all(list);
  for (std::size_t pos = 0; (pos = all.find(ext, pos)) != std::string_view::npos; pos += ext.size()) {
    const bool starts = pos == 0 || all[pos - 1] == ' ';
    const bool ends = pos + ext.size() == all.size() || all[pos + ext.size()] == ' ';
    if (starts && ends) return true;
  }
  return false;
}

/// Initializes `display` and makes a current core context of the first of `kinds` it gives (a debug
/// context when asked), setting `made`; "" or why not.
std::string try_display(EGLDisplay display, EGLContext& out, bool debug, const std::vector<context_kind>& kinds,
                        context_kind& made) {
  if (display == EGL_NO_DISPLAY) return "no display (" + egl_error_name(eglGetError()) + ")";
  EGLint egl_major = 0, egl_minor = 0;
  if (!eglInitialize(display, &egl_major, &egl_minor)) return "eglInitialize: " + egl_error_name(eglGetError());
  gladLoaderLoadEGL(display); // display extensions
  const char* exts = eglQueryString(display, EGL_EXTENSIONS);
  if (!has_extension(exts, "EGL_KHR_surfaceless_context")) return "no EGL_KHR_surfaceless_context";
  EGLContext ctx = EGL_NO_CONTEXT;
  std::string refused;
  for (const context_kind kind : kinds) {
    const bool es = kind == context_kind::es31;
    const char* what = kind == context_kind::gl45   ? "OpenGL 4.5 core"
                       : kind == context_kind::gl33 ? "OpenGL 3.3 core"
                                                    : "OpenGL ES 3.1";
    if (!eglBindAPI(es ? EGL_OPENGL_ES_API : EGL_OPENGL_API)) {
      refused +=
          (refused.empty() ? "" : ", ") + std::string("eglBindAPI for ") + what + ": " + egl_error_name(eglGetError());
      continue;
    }
    EGLConfig config = EGL_NO_CONFIG_KHR;
    if (!has_extension(exts, "EGL_KHR_no_config_context")) {
      const EGLint want[] = {EGL_RENDERABLE_TYPE, es ? EGL_OPENGL_ES3_BIT : EGL_OPENGL_BIT, EGL_NONE};
      EGLint count = 0;
      if (!eglChooseConfig(display, want, &config, 1, &count) || count == 0) {
        refused += (refused.empty() ? "" : ", ") + std::string("no EGL config for ") + what;
        continue;
      }
    }
    const EGLint major = kind == context_kind::gl45 ? 4 : 3, minor = kind == context_kind::gl45 ? 5 : es ? 1 : 3;
    const EGLint desktop[] = {EGL_CONTEXT_MAJOR_VERSION,
                              major,
                              EGL_CONTEXT_MINOR_VERSION,
                              minor,
                              EGL_CONTEXT_OPENGL_PROFILE_MASK,
                              EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                              EGL_CONTEXT_OPENGL_DEBUG,
                              debug ? EGL_TRUE : EGL_FALSE,
                              EGL_NONE};
    const EGLint embedded[] = {
        EGL_CONTEXT_MAJOR_VERSION,    major,   EGL_CONTEXT_MINOR_VERSION, minor, EGL_CONTEXT_OPENGL_DEBUG,
        debug ? EGL_TRUE : EGL_FALSE, EGL_NONE};
    ctx = eglCreateContext(display, config, EGL_NO_CONTEXT, es ? embedded : desktop);
    if (ctx != EGL_NO_CONTEXT) {
      made = kind;
      break;
    }
    refused += (refused.empty() ? "" : ", ") +
               ("no " + std::string(what) + " context (" + egl_error_name(eglGetError()) + ")");
  }
  if (ctx == EGL_NO_CONTEXT) return refused;
  if (!eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
    eglDestroyContext(display, ctx);
    return "eglMakeCurrent: " + egl_error_name(eglGetError());
  }
  out = ctx;
  return "";
}

} // namespace

std::vector<context_kind> requested_contexts() {
  const char* v = std::getenv("WINNOW_GL_CONTEXT");
  const std::string s = v ? v : "";
  if (s.empty() || s == "auto") return {context_kind::gl45, context_kind::gl33, context_kind::es31};
  if (s == "gl45") return {context_kind::gl45};
  if (s == "gl33") return {context_kind::gl33};
  if (s == "es31") return {context_kind::es31};
  throw usage_error("environment: WINNOW_GL_CONTEXT='" + s + "' is not accepted (auto, gl45, gl33 or es31)" +
                    did_you_mean(s, {"auto", "gl45", "gl33", "es31"}));
}

context::context() {
  m_info.debug = debug_enabled();
  const std::vector<context_kind> kinds = requested_contexts();
  if (!gladLoaderLoadEGL(EGL_NO_DISPLAY)) throw unavailable("winnow::gl: no EGL library (libEGL.so.1) could be loaded");
  const char* client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  std::string why;
  EGLDisplay display = EGL_NO_DISPLAY;
  EGLContext ctx = EGL_NO_CONTEXT;
  // 1. The device platform: a GPU (or Mesa's software device) without any window system.
  if (has_extension(client, "EGL_EXT_platform_device") && has_extension(client, "EGL_EXT_device_enumeration")) {
    EGLDeviceEXT devices[16];
    EGLint count = 0;
    eglQueryDevicesEXT(16, devices, &count);
    // WINNOW_DEVICE=K (set by `winnow reproduce --devices`): the K-th EGL device alone.
    EGLint first = 0;
    if (const auto only = env_integer("WINNOW_DEVICE", 0, 15)) {
      first = static_cast<EGLint>(*only);
      if (first >= count)
        why += "WINNOW_DEVICE=" + std::to_string(first) + " but EGL has " + std::to_string(count) + " devices; ";
      count = std::min(count, first + 1);
    }
    for (EGLint i = first; i < count && ctx == EGL_NO_CONTEXT; ++i) {
      display = eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, devices[i], nullptr);
      const std::string r = try_display(display, ctx, m_info.debug, kinds, m_info.kind);
      if (r.empty()) m_info.platform = "EGL device " + std::to_string(i) + " (EGL_EXT_platform_device)";
      else why += "device " + std::to_string(i) + ": " + r + "; ";
    }
    if (count == 0) why += "EGL_EXT_platform_device: no devices; ";
  } else {
    why += "no EGL_EXT_platform_device; ";
  }
  // 2. Mesa's surfaceless platform.
  if (ctx == EGL_NO_CONTEXT && has_extension(client, "EGL_MESA_platform_surfaceless")) {
    display = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
    const std::string r = try_display(display, ctx, m_info.debug, kinds, m_info.kind);
    if (r.empty()) m_info.platform = "EGL surfaceless (EGL_MESA_platform_surfaceless)";
    else why += "surfaceless: " + r;
  } else if (ctx == EGL_NO_CONTEXT) {
    why += "no EGL_MESA_platform_surfaceless";
  }
  if (ctx == EGL_NO_CONTEXT) {
    std::string asked;
    for (const auto k : kinds) asked += (asked.empty() ? "" : " or ") + std::string(to_string(k));
    throw unavailable("winnow::gl: no headless OpenGL context (" + asked + "): " + why);
  }
  m_display = display;
  m_context = ctx;
  set_up(reinterpret_cast<GLADloadfunc>(eglGetProcAddress));
}

context::context(std::string platform, GLADloadfunc load) {
  m_info.debug = debug_enabled();
  m_info.platform = std::move(platform);
  set_up(load);
}

void context::set_up(GLADloadfunc load) {
  const bool es = m_info.kind == context_kind::es31;
  api::set_es(es);
  if (!api::load(load))
    throw unavailable(std::string("winnow::gl: the OpenGL ") + (es ? "ES " : "") + "entry points could not be loaded");
  // The version from the context itself: the loader's flags stop at what it was generated for.
  GLint gl_major = 0, gl_minor = 0;
  glGetIntegerv(GL_MAJOR_VERSION, &gl_major);
  glGetIntegerv(GL_MINOR_VERSION, &gl_minor);
  if (10 * gl_major + gl_minor < (m_info.kind == context_kind::gl45 ? 45 : es ? 31 : 33))
    throw unavailable("winnow::gl: the context asked as " + std::string(to_string(m_info.kind)) + " is OpenGL " +
                      reinterpret_cast<const char*>(glGetString(GL_VERSION)));
  m_info.debug_groups = api::has_debug(); // core from 4.3, an extension before and on ES
  if (m_info.debug && !m_info.debug_groups)
    throw unavailable("winnow::gl: debug contexts are on but the context has no KHR_debug for their output");
  if (m_info.debug) {
    // Tests and --debug: every error is reported by the call that made it. Benchmarks run on a plain
    // context, where the synchronous callback cannot put gaps between small passes.
    api::debug_output(on_debug);
  }
  m_info.vendor = reinterpret_cast<const char*>(glGetString(GL_VENDOR));
  m_info.renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  m_info.version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
  m_info.software = m_info.renderer.starts_with("llvmpipe") || m_info.renderer.starts_with("softpipe");
  // Which GPU this is, for NVML: only NVIDIA's UUID is NVML's, and only one device behind the context
  // says which one runs it.
  if (GLAD_GL_EXT_memory_object && m_info.vendor.starts_with("NVIDIA")) {
    GLint devices = 0;
    glGetIntegerv(GL_NUM_DEVICE_UUIDS_EXT, &devices);
    GLubyte uuid[GL_UUID_SIZE_EXT] = {};
    if (devices == 1) {
      glGetUnsignedBytei_vEXT(GL_DEVICE_UUID_EXT, 0, uuid);
      m_info.identity.uuid = nvidia_uuid(uuid);
    }
  }
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &m_info.max_texture_size);
  m_info.timestamp_bits = api::timestamp_bits();
  if (m_info.timestamp_bits == 0) m_info.elapsed_bits = api::elapsed_bits(); // timer_query's other form
  glGetIntegerv(GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT, &m_info.uniform_offset_alignment);
  glGetIntegerv(GL_MAX_DRAW_BUFFERS, &m_info.max_draw_buffers);
  // Integer textures are read with texelFetch only; rows of any width are packed tightly.
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  check("winnow::gl::context");
}

context::~context() {
  if (m_context) {
    eglMakeCurrent(m_display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(m_display, m_context);
    eglTerminate(m_display);
  }
}

namespace {
/// The process's context. Never destroyed: tearing down EGL from an exit handler races the drivers'
/// own exit handlers.
context*& the_context() {
  static context* instance = nullptr;
  return instance;
}
} // namespace

context& context::get() {
  if (!the_context()) the_context() = new context();
  return *the_context();
}

void context::adopt(std::string platform, GLADloadfunc load) {
  if (the_context()) throw error("winnow::gl::context: a context exists already; adopt() must come first");
  the_context() = new context(std::move(platform), load);
}

void record_debug_groups(bool on) {
  if (!context::get().info().debug || !context::get().info().debug_groups)
    throw error("winnow::gl: debug groups are reported only on a debug context");
  debug_groups().recording = on;
  api::debug_group_messages(on);
}

std::vector<std::string> take_debug_groups() {
  std::vector<std::string> out;
  out.swap(debug_groups().entries);
  return out;
}

std::vector<std::string> take_debug_errors() {
  std::vector<std::string> out;
  out.swap(debug_errors());
  return out;
}

void context::check(std::string_view where) {
  auto errors = take_debug_errors();
  for (GLenum e; (e = glGetError()) != GL_NO_ERROR;) errors.push_back("glGetError: " + std::string(error_name(e)));
  if (errors.empty()) return;
  std::string msg(where);
  msg += ": ";
  for (std::size_t i = 0; i < errors.size(); ++i) msg += (i ? "; " : "") + errors[i];
  throw error(msg);
}

std::optional<std::string> unavailable_reason() {
  static const std::optional<std::string> reason = []() -> std::optional<std::string> {
    try {
      (void)context::get();
      return std::nullopt;
    } catch (const unavailable& e) { return e.what(); }
  }();
  return reason;
}

} // namespace winnow::gl
