// cpu/remove_if — std::remove_if in place, one thread.
#include <algorithm>

#include "algorithms.hpp"
#include "cpu_algorithm.hpp"

namespace winnow::cpu {
namespace {

class remove_if final : public cpu_algorithm {
public:
  void run(timer& t) override {
    mark(t, false);
    t.phase("remove");
    m_end = static_cast<std::size_t>(std::remove(m_a.begin(), m_a.end(), 0u) - m_a.begin());
  }
  compaction_output result() override { return hand_over(m_a, m_end, false); }
  traffic bytes_moved() const override {
    const traffic m = mark_traffic();
    return {m.read + 4 * m_w->size(), m.written + 4 * m_w->kept()};
  }

private:
  std::size_t m_end = 0;
};

} // namespace

algorithm_entry remove_if_entry() {
  return {.info = {.api = "cpu",
                   .name = "remove_if",
                   .summary = "std::remove_if in place, sequential",
                   .stable = true,
                   .in_place = true,
                   .input = input_kind::predicate,
                   .axes = {},
                   .relative_cost = 5},
          .make = [] { return std::make_unique<remove_if>(); }};
}

} // namespace winnow::cpu
