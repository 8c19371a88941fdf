#include "winnow/timer.hpp"

#include <chrono>

#include "winnow/error.hpp"

namespace winnow {
namespace {

class cpu_timer final : public timer {
public:
  void start() override {
    m_marks.clear();
    m_start = clock::now();
  }
  void phase(std::string_view name) override { m_marks.push_back({std::string(name), clock::now()}); }
  void stop() override { m_stop = clock::now(); }
  std::vector<phase_time> read() override {
    std::vector<phase_time> out;
    for (std::size_t i = 0; i < m_marks.size(); ++i) {
      const auto end = i + 1 < m_marks.size() ? m_marks[i + 1].at : m_stop;
      out.push_back({m_marks[i].name, std::chrono::duration<double, std::nano>(end - m_marks[i].at).count()});
    }
    return out;
  }

private:
  using clock = std::chrono::steady_clock;
  struct mark {
    std::string name;
    clock::time_point at;
  };
  std::vector<mark> m_marks;
  clock::time_point m_start, m_stop;
};

} // namespace

std::unique_ptr<timer> make_cpu_timer() { return std::make_unique<cpu_timer>(); }

} // namespace winnow
