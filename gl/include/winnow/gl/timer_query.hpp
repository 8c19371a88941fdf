#pragma once
/// The GL backend's timers. timer_query: GL_TIMESTAMP queries, glQueryCounter at every phase mark
/// and at the end (or, where a context has no timestamps, a GL_TIME_ELAPSED query a phase), results
/// read after the run (stop() waits with glFinish so wall time covers the GPU
/// work). finish_timer, where a context has no timer queries (or WINNOW_GL_TIMER=finish asks for it):
/// glFinish and the host's steady_clock at every mark — coarser (each phase then also pays a full
/// drain of the pipeline), and records say which one measured. Every phase is a debug group of its
/// name too (glPushDebugGroup, where the context has KHR_debug), for profilers and capture tools.
#include <memory>
#include <vector>

#include "winnow/gl/objects.hpp"
#include "winnow/timer.hpp"

namespace winnow::gl {

class timer_query final : public winnow::timer {
public:
  timer_query();
  void start() override;
  void phase(std::string_view name) override;
  void stop() override;
  std::vector<phase_time> read() override;
  [[nodiscard]] std::string clock() const override;

private:
  void mark();
  /// GL_TIME_ELAPSED queries, one a phase, where the context has no timestamps (WebGL 2 on
  /// SwiftShader and in many browsers: EXT_disjoint_timer_query_webgl2 without a TIMESTAMP counter).
  bool m_elapsed = false;
  bool m_open = false; ///< an elapsed-time query is open
  std::vector<handle<detail::delete_query>> m_queries;
  std::vector<std::string> m_names;
  std::size_t m_used = 0; ///< queries used this run
};

class finish_timer final : public winnow::timer {
public:
  finish_timer();
  void start() override;
  void phase(std::string_view name) override;
  void stop() override;
  std::vector<phase_time> read() override { return m_host->read(); }
  [[nodiscard]] std::string clock() const override {
#ifdef __EMSCRIPTEN__
    // The web build without EXT_disjoint_timer_query_webgl2: steady_clock is performance.now(), which
    // browsers coarsen (Chromium: to 100 µs without cross-origin isolation).
    return "performance.now() after glFinish (WebGL 2 without EXT_disjoint_timer_query_webgl2)";
#else
    return "host steady_clock after glFinish (no GL timer queries)";
#endif
  }

private:
  std::unique_ptr<winnow::timer> m_host = make_cpu_timer();
  bool m_open = false; ///< a debug group is open
};

/// The timer a GL run uses: timer_query where the context has GL_TIMESTAMP queries, else
/// finish_timer; WINNOW_GL_TIMER=finish (or queries) chooses (usage_error for anything else).
[[nodiscard]] std::unique_ptr<winnow::timer> make_timer();

} // namespace winnow::gl
