// cpu/par_remove_if — std::remove_if(std::execution::par), which libstdc++ runs on oneTBB; the
// arena sets the thread count.
#include <algorithm>
#include <execution>

#include "algorithms.hpp"
#include "cpu_algorithm.hpp"

namespace winnow::cpu {
namespace {

class par_remove_if final : public cpu_algorithm {
public:
  void run(timer& t) override {
    mark(t, true);
    t.phase("remove");
    in_arena([&] {
      m_end = static_cast<std::size_t>(
          std::remove_if(std::execution::par, m_a.begin(), m_a.end(), [](std::uint32_t x) { return x == 0; }) -
          m_a.begin());
    });
  }
  compaction_output result() override { return hand_over(m_a, m_end, false); }
  traffic bytes_moved() const override {
    // The algorithmic minimum; libstdc++'s parallel remove also fills and copies back a buffer.
    const traffic m = mark_traffic();
    return {m.read + 4 * m_w->size(), m.written + 4 * m_w->kept()};
  }

private:
  std::size_t m_end = 0;
};

} // namespace

algorithm_entry par_remove_if_entry() {
  return {.info = {.api = "cpu",
                   .name = "par_remove_if",
                   .summary = "std::remove_if(std::execution::par) in place, oneTBB backend",
                   .stable = true,
                   .in_place = true,
                   .input = input_kind::predicate,
                   .axes = {threads_axis()}},
          .make = [] { return std::make_unique<par_remove_if>(); }};
}

} // namespace winnow::cpu
