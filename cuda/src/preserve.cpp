// cuda/preserve — compaction from a preserve list P (the survivors' indices, in any order): out[i] =
// A[P[i]], out of place, unstable, O(p). The inverse of Redzone, which Bontes & Gain 2024 name as
// future work; P is built and uploaded at prepare time (untimed), the complement of R in a random
// order (workload::preserved), as R is given to Redzone. Kernel: kernels/preserve.cu.
#include "algorithms.hpp"
#include "cuda_algorithm.hpp"
#include "dispatch/preserve.hpp"

namespace winnow::cuda {
namespace {

class preserve final : public cuda_algorithm {
public:
  void run(timer& t) override {
    t.phase("gather");
    if (m_kept == 0) return;
    launch_gather(m_out.get(), m_pristine.get(), m_p.get(), m_kept, stream());
    ++m_launches;
  }

protected:
  device_result output() override {
    // A is never written: the out-of-place check reads it all the same.
    return {.who = "winnow::cuda::preserve", .values = m_out.get(), .count = m_kept, .input_after = m_pristine.get()};
  }

  void prepare_device(const param_set&) override {
    const std::vector<std::uint32_t> p = m_w->preserved();
    m_kept = p.size();
    m_p.resize(m_kept);
    m_p.upload(p.data(), m_kept, stream());
    m_out.resize(m_kept);
  }

  void reset_device() override {}

  traffic traffic_model() const override {
    // P in, one scattered word of A per survivor in (a 32-byte sector on the bus), every survivor out.
    const std::uint64_t p = 4 * m_kept;
    return {2 * p, p, 0};
  }

private:
  std::size_t m_kept = 0;
  device_buffer<std::uint32_t> m_p, m_out;
};

} // namespace

algorithm_entry preserve_entry() {
  return {.info = {.api = "cuda",
                   .name = "preserve",
                   .summary =
                       "out[i] = A[P[i]] from the preserve list P (the survivors' indices, shuffled), one "
                       "gather kernel: out of place, O(p), unstable (Redzone's inverse, Bontes & Gain's future work)",
                   .stable = false,
                   .in_place = false,
                   .input = input_kind::removal_list,
                   .axes = {}},
          .make = [] { return std::make_unique<preserve>(); }};
}

} // namespace winnow::cuda
