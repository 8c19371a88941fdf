#pragma once
/// The GL backend's timers. timer_query: GL_TIMESTAMP queries, glQueryCounter at every phase mark
/// and at the end, results read after the run (stop() waits with glFinish so wall time covers the GPU
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
  std::vector<handle<detail::delete_query>> m_queries;
  std::vector<std::string> m_names;
  std::size_t m_used = 0;
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
    // The web build: steady_clock is performance.now(), which browsers coarsen (Chromium: to 100 µs
    // without cross-origin isolation); WebGL hands out a query's result only after the page's task.
    return "performance.now() after glFinish (WebGL 2: no timer query results within a run)";
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
