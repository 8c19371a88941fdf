#pragma once
/// The process's headless OpenGL 4.5 core context: EGL's device platform first
/// (EGL_EXT_platform_device), then EGL_MESA_platform_surfaceless; no window, no GLFW. With debug
/// contexts on (WINNOW_DEBUG=1, --debug: the tests) it is a debug context whose KHR_debug output is
/// synchronous; any GL error it reports fails the run that caused it (check()). Otherwise check()
/// sees what glGetError reports.
#include <glad/gl.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace winnow::gl {

struct context_info {
  std::string platform; ///< "EGL device 0 (EGL_EXT_platform_device)" or "EGL surfaceless (Mesa)"
  std::string vendor, renderer, version;
  int max_texture_size = 0;
  int timestamp_bits = 0; ///< GL_QUERY_COUNTER_BITS of GL_TIMESTAMP; 0: no timer queries
  int uniform_offset_alignment = 256; ///< GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT
  bool debug = false;     ///< a debug context with synchronous debug output
};

class context {
public:
  /// Creates the context on first use and makes it current on this thread. Throws unavailable
  /// naming what each platform said when none gives a 4.5 core context.
  static context& get();
  /// Makes the OpenGL 4.5 core context current on this thread — made by a window library (the
  /// viewer) — the process's context, its entry points loaded with `load`. Before the first get().
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
  context(std::string platform, GLADloadfunc load);
  void set_up(GLADloadfunc load);
  context_info m_info;
  void* m_display = nullptr;
  void* m_context = nullptr;
};

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
