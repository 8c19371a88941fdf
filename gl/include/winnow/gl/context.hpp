#pragma once
/// The process's headless OpenGL core context: EGL's device platform first
/// (EGL_EXT_platform_device), then EGL_MESA_platform_surfaceless; no window, no GLFW. Its kind is
/// WINNOW_GL_CONTEXT's (gl45: OpenGL 4.5 core, gl33: OpenGL 3.3 core, es31: OpenGL ES 3.1), or by
/// default the first EGL gives in that order. The backend calls only what OpenGL 3.3 core and
/// OpenGL ES 3.1 share, the extensions it checks for (KHR_debug, EXT_disjoint_timer_query on ES) and,
/// in src/api.cpp, the few calls that differ, picked per context; shaders get the kind's #version
/// (tests/gl proves the calls at build time, compiling the backend against a 3.3-only and an
/// ES 3.1-only loader). With debug
/// contexts on (WINNOW_DEBUG=1, --debug: the tests) it is a debug context whose KHR_debug output is
/// synchronous; any GL error it reports fails the run that caused it (check()). Otherwise check()
/// sees what glGetError reports.
#include <glad/gl.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "winnow/device_clock.hpp"

namespace winnow::gl {

/// The contexts the backend runs on, in the order tried by default; es30 is WebGL 2's (the web build,
/// gl/src/web/context.cpp), never made through EGL.
enum class context_kind { gl45, gl33, es31, es30 };
[[nodiscard]] std::string_view to_string(context_kind k); ///< "gl45", "gl33", "es31", "es30"

/// WINNOW_GL_CONTEXT: the kinds to try, highest first (unset or "auto": all). Throws usage_error
/// naming the accepted values.
[[nodiscard]] std::vector<context_kind> requested_contexts();

struct context_info {
  context_kind kind = context_kind::gl45; ///< asked of EGL (a driver may give a later version: `version` says)
  std::string platform;                   ///< "EGL device 0 (EGL_EXT_platform_device)" or "EGL surfaceless (Mesa)"
  std::string vendor, renderer, version;
  bool software = false; ///< Mesa's software rasterizer (llvmpipe, softpipe): calibration sweeps less
  int max_texture_size = 0;
  int timestamp_bits = 0; ///< GL_QUERY_COUNTER_BITS of GL_TIMESTAMP; 0: no timer queries
  /// GL_QUERY_COUNTER_BITS of GL_TIME_ELAPSED where a context has no timestamps but elapsed-time
  /// queries (WebGL 2's EXT_disjoint_timer_query_webgl2 on SwiftShader and in many browsers); else 0.
  int elapsed_bits = 0;
  int uniform_offset_alignment = 256; ///< GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT
  int max_draw_buffers = 0;           ///< GL_MAX_DRAW_BUFFERS (the loop check writes two outputs)
  bool debug_groups = false;          ///< KHR_debug: phases are debug groups
  bool debug = false;                 ///< a debug context with synchronous debug output
  /// The device as NVML knows it: GL_EXT_memory_object's GL_DEVICE_UUID_EXT, which is Vulkan's
  /// deviceUUID and on NVIDIA's driver NVML's UUID (the harness watches its clock). Empty elsewhere.
  device_identity identity;
};

class context {
public:
  /// Creates the context on first use and makes it current on this thread. Throws unavailable
  /// naming what each platform said when none gives a context of a requested kind.
  static context& get();
  /// Makes the OpenGL 4.5 core context current on this thread — made by a window library (the
  /// viewer) — the process's context, its entry points loaded with `load`. Before the first get().
  /// (The window itself draws with 4.5 calls; the passes it shows are the backend's own.)
  static void adopt(std::string platform, GLADloadfunc load);
  [[nodiscard]] const context_info& info() const { return m_info; }
  /// Throws winnow::error listing the GL errors reported since the last check (debug output and
  /// glGetError), prefixed with `where`; clears them.
  void check(std::string_view where);
  context(const context&) = delete;
  context& operator=(const context&) = delete;
  ~context();

private:
  context();
  context(std::string platform, GLADloadfunc load); // adopted: 4.5 core
  void set_up(GLADloadfunc load);
  context_info m_info;
  void* m_display = nullptr;
  void* m_context = nullptr;
};

#ifdef __EMSCRIPTEN__
/// The web build: the canvas (a CSS selector, "#c") whose WebGL 2 context the first get() makes.
void use_canvas(std::string selector);
#endif

/// Why no GL context can be made here, or nothing. Probes once.
[[nodiscard]] std::optional<std::string> unavailable_reason();

/// The errors the debug callback collected since the last check (for check() and tests).
[[nodiscard]] std::vector<std::string> take_debug_errors();

/// While on, the debug callback also records the application's debug groups ("push NAME", "pop NAME"),
/// what a capture tool sees of the phases. Needs a debug context (winnow::error otherwise).
void record_debug_groups(bool on);
/// The groups recorded since the last call.
[[nodiscard]] std::vector<std::string> take_debug_groups();

} // namespace winnow::gl
