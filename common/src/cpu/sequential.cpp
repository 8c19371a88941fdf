// cpu/sequential — std::copy_if into a separate output: the reference compaction, timed.
#include <algorithm>

#include "algorithms.hpp"
#include "cpu_algorithm.hpp"
#include "winnow/host_memory.hpp"

namespace winnow::cpu {
namespace {

class sequential final : public cpu_algorithm {
public:
  ~sequential() override { recycle(m_out); }
  void prepare(const workload& w, const param_set& p, const prepare_options& o) override {
    cpu_algorithm::prepare(w, p, o);
    assign_zeroed(m_out, w.size());
  }
  void run(timer& t) override {
    mark(t, false);
    t.phase("compact");
    m_end = static_cast<std::size_t>(
        std::copy_if(m_a.begin(), m_a.end(), m_out.begin(), [](std::uint32_t x) { return x != 0; }) - m_out.begin());
  }
  compaction_output result() override { return hand_over(m_out, m_end, true); }
  traffic bytes_moved() const override {
    const traffic m = mark_traffic();
    return {m.read + 4 * m_w->size(), m.written + 4 * m_w->kept()};
  }

private:
  std::vector<std::uint32_t> m_out;
  std::size_t m_end = 0;
};

} // namespace

algorithm_entry sequential_entry() {
  return {.info = {.api = "cpu",
                   .name = "sequential",
                   .summary = "std::copy_if into a new stream (the reference)",
                   .stable = true,
                   .in_place = false,
                   .input = input_kind::predicate,
                   .axes = {},
                   .relative_cost = 5},
          .make = [] { return std::make_unique<sequential>(); }};
}

} // namespace winnow::cpu
