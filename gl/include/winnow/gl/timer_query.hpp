#pragma once
/// winnow::timer on GL_TIMESTAMP queries: glQueryCounter at every phase mark and at the end,
/// results read after the run (stop() waits with glFinish so wall time covers the GPU work). Every
/// phase is a debug group of its name too (glPushDebugGroup), for profilers and capture tools.
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

private:
  void mark();
  std::vector<handle<detail::delete_query>> m_queries;
  std::vector<std::string> m_names;
  std::size_t m_used = 0;
};

} // namespace winnow::gl
