#include "winnow/gl/timer_query.hpp"

#include <cstdlib>

#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#endif

#include "api.hpp"
#include "winnow/error.hpp"
#include "winnow/gl/context.hpp"

namespace winnow::gl {

timer_query::timer_query() : m_elapsed(context::get().info().timestamp_bits == 0) {
  if (m_elapsed && context::get().info().elapsed_bits == 0)
    throw unavailable("winnow::gl::timer_query: this driver has no GL_TIMESTAMP or GL_TIME_ELAPSED queries");
  // Enough for any algorithm's phases (the adaptive one's with choice=device marks every candidate's:
  // up to about 90); created here so no query is made inside a timed run.
  for (int i = 0; i < 128; ++i) {
    GLuint id = 0;
    glGenQueries(1, &id);
    m_queries.emplace_back(id);
  }
}

std::string timer_query::clock() const {
  if (m_elapsed) return "GL_TIME_ELAPSED_EXT queries, one a phase (EXT_disjoint_timer_query)";
  return api::es() ? "GL_TIMESTAMP_EXT queries (EXT_disjoint_timer_query)" : "GL_TIMESTAMP queries";
}

// A timestamp at every mark; or, with elapsed-time queries, the open phase's query ended and (but at
// the stop) the next one begun: one query a phase, whose result is the phase's time.
void timer_query::mark() {
  if (m_elapsed && m_open) glEndQuery(api::time_elapsed);
  m_open = false;
  if (m_elapsed && m_names.size() == m_used) return; // the stop: no phase follows
  if (m_used == m_queries.size()) {
    GLuint id = 0;
    glGenQueries(1, &id);
    m_queries.emplace_back(id);
  }
  if (m_elapsed) {
    glBeginQuery(api::time_elapsed, m_queries[m_used++].id());
    m_open = true;
  } else {
    api::query_counter(m_queries[m_used++].id());
  }
}

void timer_query::start() {
  if (m_open) glEndQuery(api::time_elapsed); // a run that ended without stop(): a query may be open
  m_open = false;
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
#ifdef __EMSCRIPTEN__
  // WebGL hands out a query's result only after the page's task has returned to the browser (the
  // WebGL 2 spec; docs/driver-quirks.md): yield to it (Asyncify) until the last mark's is there.
  for (int yielded = 0; m_used; ++yielded) {
    GLuint available = 0;
    glGetQueryObjectuiv(m_queries[m_used - 1].id(), GL_QUERY_RESULT_AVAILABLE, &available);
    if (available) break;
    if (yielded == 10000)
      throw error("winnow::gl::timer_query: the browser made no timestamp available after 10000 returns to it");
    emscripten_sleep(0);
  }
#endif
  std::vector<GLuint64> stamps(m_used);
  for (std::size_t i = 0; i < m_used; ++i) stamps[i] = api::query_result(m_queries[i].id());
  context::get().check("winnow::gl::timer_query");
  // ES: a disjoint event (a clock change, a context switch) voids the timestamps of the run.
  if (api::timer_disjoint())
    throw error("winnow::gl::timer_query: the GPU reported a disjoint event (GL_GPU_DISJOINT_EXT): this run's "
                "timestamps are void");
  std::vector<phase_time> out;
  if (m_elapsed)
    for (std::size_t i = 0; i < m_used; ++i) out.push_back({m_names[i], static_cast<double>(stamps[i])});
  else
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
  const context_info& i = context::get().info();
  if (asked == "finish" || (i.timestamp_bits == 0 && i.elapsed_bits == 0)) return std::make_unique<finish_timer>();
  // SwiftShader's elapsed-time queries (all it has under WebGL 2) read about ten times the host's wall
  // time around the whole run (docs/driver-quirks.md): not a clock of the work. glFinish's is truer
  // there, unless the queries are asked for by name.
  if (asked.empty() && i.software && i.timestamp_bits == 0) return std::make_unique<finish_timer>();
  return std::make_unique<timer_query>();
}

} // namespace winnow::gl
