#include "winnow/gl/timer_query.hpp"

#include <cstdlib>

#include "winnow/error.hpp"
#include "winnow/gl/context.hpp"

namespace winnow::gl {

timer_query::timer_query() {
  if (context::get().info().timestamp_bits == 0)
    throw unavailable("winnow::gl::timer_query: this driver has no GL_TIMESTAMP queries");
  // Enough for any algorithm's phases; created here so no query is made inside a timed run.
  for (int i = 0; i < 16; ++i) {
    GLuint id = 0;
    glGenQueries(1, &id);
    m_queries.emplace_back(id);
  }
}

void timer_query::mark() {
  if (m_used == m_queries.size()) {
    GLuint id = 0;
    glGenQueries(1, &id);
    m_queries.emplace_back(id);
  }
  glQueryCounter(m_queries[m_used++].id(), GL_TIMESTAMP);
}

void timer_query::start() {
  m_used = 0;
  m_names.clear();
}

// Each phase is also a debug group of its name (KHR_debug: core since 4.3, an extension on 3.3), so
// a capture in RenderDoc or Nsight Graphics shows the algorithm's phases; without debug output it
// costs nothing.
void timer_query::phase(std::string_view name) {
  const bool groups = context::get().info().debug_groups;
  if (groups && !m_names.empty()) glPopDebugGroup();
  m_names.emplace_back(name);
  mark();
  if (groups) glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 0, static_cast<GLsizei>(name.size()), name.data());
}

void timer_query::stop() {
  mark();
  if (context::get().info().debug_groups && !m_names.empty()) glPopDebugGroup();
  glFinish();
}

std::vector<phase_time> timer_query::read() {
  std::vector<GLuint64> stamps(m_used);
  for (std::size_t i = 0; i < m_used; ++i) glGetQueryObjectui64v(m_queries[i].id(), GL_QUERY_RESULT, &stamps[i]);
  context::get().check("winnow::gl::timer_query");
  std::vector<phase_time> out;
  for (std::size_t i = 0; i + 1 < m_used; ++i)
    out.push_back({m_names[i], static_cast<double>(stamps[i + 1] - stamps[i])});
  return out;
}

finish_timer::finish_timer() = default;

void finish_timer::start() {
  glFinish(); // work queued before the run is not the run's
  m_host->start();
}

void finish_timer::phase(std::string_view name) {
  glFinish();
  m_host->phase(name);
  const bool groups = context::get().info().debug_groups;
  if (groups && m_open) glPopDebugGroup();
  if (groups) glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 0, static_cast<GLsizei>(name.size()), name.data());
  m_open = groups;
}

void finish_timer::stop() {
  glFinish();
  m_host->stop();
  if (m_open) glPopDebugGroup();
  m_open = false;
}

std::unique_ptr<winnow::timer> make_timer() {
  const char* v = std::getenv("WINNOW_GL_TIMER");
  const std::string asked = v ? v : "";
  if (!asked.empty() && asked != "queries" && asked != "finish")
    throw usage_error("environment: WINNOW_GL_TIMER='" + asked + "' is not accepted (queries or finish)" +
                      did_you_mean(asked, {"queries", "finish"}));
  if (asked == "finish" || context::get().info().timestamp_bits == 0) return std::make_unique<finish_timer>();
  return std::make_unique<timer_query>();
}

} // namespace winnow::gl
