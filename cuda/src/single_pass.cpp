// cuda/single_pass — the Redzone paper's O(n) single-block competitor (§5.1, Fig. 5): InK's move
// on one block of 1024 threads without InK's counting read; stable, in place.
#include "algorithms.hpp"
#include "cuda_algorithm.hpp"
#include "dispatch/single_pass.hpp"

namespace winnow::cuda {
namespace {

class single_pass final : public cuda_algorithm {
public:
  void run(timer& t) override {
    if (m_w->removal_list) {
      t.phase("mark");
      if (m_k) {
        single_pass_mark(m_a.get(), m_removals.get(), m_k, stream());
        ++m_launches;
      }
    }
    t.phase("move");
    single_pass_move(m_a.get(), m_n, m_count.get(), stream());
    ++m_launches;
  }

protected:
  device_result output() override {
    const std::size_t count = read_count();
    check_count(count, "winnow::cuda::single_pass");
    return {.who = "winnow::cuda::single_pass", .values = m_a.get(), .count = count};
  }

  void prepare_device(const param_set&) override { m_a.resize(m_n); }
  void reset_device() override { m_a.copy_from(m_pristine, stream()); }
  traffic traffic_model() const override {
    const traffic mark = mark_traffic();
    return {mark.read + 4 * m_n, mark.written + 4 * m_w->kept()};
  }

private:
  device_buffer<std::uint32_t> m_a;
};

} // namespace

algorithm_entry single_pass_entry() {
  return {.info = {.api = "cuda",
                   .name = "single_pass",
                   .summary = "the Redzone paper's single-block O(n) competitor: one block of 1024 threads, one read "
                              "of A, ballot/popc, "
                              "stable, in place",
                   .stable = true,
                   .in_place = true,
                   .input = input_kind::predicate,
                   .axes = {},
                   .relative_cost = 75},
          .make = [] { return std::make_unique<single_pass>(); }};
}

} // namespace winnow::cuda
