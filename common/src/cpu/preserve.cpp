// cpu/preserve — compaction from a preserve list P (the indices to keep, in any order): out[i] =
// A[P[i]], out of place, unstable, O(p) whatever n is. The inverse of Redzone (which is O(k) from
// the removal list), named by Bontes & Gain 2024 as future work: when few items survive, gathering
// them beats moving the many into the holes. P is built at prepare time (untimed), the complement
// of R in a random order (workload::preserved), as R is given to Redzone.
// Example: A = 5 6 7 8 9, P = 3 0 → out = 8 5.
#include <oneapi/tbb/parallel_for.h>

#include "algorithms.hpp"
#include "cpu_algorithm.hpp"
#include "winnow/host_memory.hpp"

namespace winnow::cpu {
namespace {

class preserve final : public cpu_algorithm {
public:
  ~preserve() override {
    recycle(m_p);
    recycle(m_out);
  }
  void prepare(const workload& w, const param_set& p, const prepare_options& o) override {
    cpu_algorithm::prepare(w, p, o);
    m_p = w.preserved();
    assign_zeroed(m_out, m_p.size());
  }
  void run(timer& t) override {
    t.phase("gather");
    in_arena([&] {
      oneapi::tbb::parallel_for(oneapi::tbb::blocked_range<std::size_t>(0, m_p.size()), [&](const auto& range) {
        for (std::size_t i = range.begin(); i != range.end(); ++i) m_out[i] = m_a[m_p[i]];
      });
    });
  }
  compaction_output result() override { return hand_over(m_out, m_out.size(), true); }
  traffic bytes_moved() const override {
    // P in, one scattered word of A per entry in, every survivor out.
    const std::uint64_t p = 4 * m_p.size();
    return {2 * p, p};
  }

private:
  std::vector<std::uint32_t> m_p, m_out;
};

} // namespace

algorithm_entry preserve_entry() {
  return {.info = {.api = "cpu",
                   .name = "preserve",
                   .summary = "out[i] = A[P[i]] from the preserve list P (the survivors' indices, shuffled) on oneTBB: "
                              "out of place, O(p), unstable (Redzone's inverse, Bontes & Gain's future work)",
                   .stable = false,
                   .in_place = false,
                   .input = input_kind::removal_list,
                   .axes = {threads_axis()}},
          .make = [] { return std::make_unique<preserve>(); }};
}

} // namespace winnow::cpu
