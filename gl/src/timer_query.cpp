#include "winnow/gl/timer_query.hpp"

#include <cstdlib>

#include "api.hpp"
#include "winnow/error.hpp"
#include "winnow/gl/context.hpp"

namespace winnow::gl {

timer_query::timer_query() {
  if (context::get().info().timestamp_bits == 0)
    throw unavailable("winnow::gl::timer_query: this driver has no GL_TIMESTAMP queries");
  // Enough for any algorithm's phases (the adaptive one's with choice=device marks every candidate's:
  // up to about 90); created here so no query is made inside a timed run.
  for (int i = 0; i < 128; ++i) {
    GLuint id = 0;
    glGenQueries(1, &id);
    m_queries.emplace_back(id);
  }
}

std::string timer_query::clock() const {
  return api::es() ? "GL_TIMESTAMP_EXT queries (EXT_disjoint_timer_query)" : "GL_TIMESTAMP queries";
}

void timer_query::mark() {
  if (m_used == m_queries.size()) {
    GLuint id = 0;
    glGenQueries(1, &id);
    m_queries.emplace_back(id);
  }
  api::query_counter(m_queries[m_used++].id());
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
  if (groups && !m_names.empty()) api::pop_group();
  m_names.emplace_back(name);
  mark();
  if (groups) api::push_group(name);
}

void timer_query::stop() {
  mark();
  if (context::get().info().debug_groups && !m_names.empty()) api::pop_group();
  glFinish();
}

std::vector<phase_time> timer_query::read() {
  std::vector<GLuint64> stamps(m_used);
  for (std::size_t i = 0; i < m_used; ++i) stamps[i] = api::query_result(m_queries[i].id());
  context::get().check("winnow::gl::timer_query");
  // ES: a disjoint event (a clock change, a context switch) voids the timestamps of the run.
  if (api::timer_disjoint())
    throw error("winnow::gl::timer_query: the GPU reported a disjoint event (GL_GPU_DISJOINT_EXT): this run's "
                "timestamps are void");
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
  if (groups && m_open) api::pop_group();
  if (groups) api::push_group(name);
  m_open = groups;
}

void finish_timer::stop() {
  glFinish();
  m_host->stop();
  if (m_open) api::pop_group();
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
