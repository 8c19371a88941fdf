// cuda/ink — InK-style compaction as the blog post gives it: block counts (__syncthreads_count),
// an exclusive scan of the counts, a ballot/popc move; out of place. cuda/ink_atomic — InK-Compact's
// own form (Hughes et al. 2013): one kernel whose blocks count and take their output range with an
// atomicAdd on the running count, so no scan and one read of A; blocks land in arrival order (unstable).
#include "algorithms.hpp"
#include "cuda_algorithm.hpp"
#include "dispatch/ink.hpp"
#include "dispatch/cub.hpp"

namespace winnow::cuda {
namespace {

class ink final : public cuda_algorithm {
public:
  explicit ink(bool atomic) : m_atomic(atomic) {}

  void run(timer& t) override {
    mark(t, m_a.get());
    if (m_atomic) {
      t.phase("compact");
      if (m_n == 0) return;
      ink_atomic(m_a.get(), m_n, m_block, m_out.get(), m_count.get(), stream());
      m_launches += 2; // the count's reset, the kernel
      return;
    }
    t.phase("count");
    if (m_n == 0) return;
    ink_block_counts(m_a.get(), m_n, m_block, m_counts.get(), stream());
    t.phase("scan");
    cub_exclusive_sum(m_temp.get(), m_temp.bytes(), m_counts.get(), m_offsets.get(), m_blocks, stream());
    ink_total(m_counts.get(), m_offsets.get(), m_blocks, m_count.get(), stream());
    t.phase("move");
    ink_move(m_a.get(), m_n, m_block, m_offsets.get(), m_out.get(), stream());
    m_launches += 4; // counts, CUB's scan (one kernel pair counted as one), total, move
  }

protected:
  device_result output() override {
    const char* who = m_atomic ? "winnow::cuda::ink_atomic" : "winnow::cuda::ink";
    const std::size_t count = m_n ? read_count() : 0;
    check_count(count, who);
    return {.who = who, .values = m_out.get(), .count = count, .input_after = m_a.get()};
  }

  void prepare_device(const param_set& p) override {
    m_block = static_cast<unsigned>(param_size(p, "block"));
    m_blocks = std::max<std::size_t>(1, (m_n + m_block - 1) / m_block);
    m_a.resize(m_n);
    m_out.resize(m_n);
    if (m_atomic) return;
    m_counts.resize(m_blocks);
    m_offsets.resize(m_blocks);
    m_temp.resize(cub_exclusive_sum_bytes(m_blocks));
  }
  void reset_device() override { m_a.copy_from(m_pristine, stream()); }
  traffic traffic_model() const override {
    const traffic mark = mark_traffic();
    // atomic: A read once, the kept written once (and the count's word).
    if (m_atomic) return {mark.read + 4 * m_n, mark.written + 4 * m_w->kept()};
    const std::uint64_t b = m_blocks;
    // count: read A; scan: read and write the block counts; move: read A again, write the kept.
    return {mark.read + 4 * m_n + 8 * b + 4 * m_n, mark.written + 4 * b + 4 * m_w->kept()};
  }

private:
  bool m_atomic;
  unsigned m_block = 1024;
  std::size_t m_blocks = 1;
  device_buffer<std::uint32_t> m_a, m_out, m_counts, m_offsets;
  device_buffer<std::uint8_t> m_temp;
};

param_axis ink_block_axis() {
  return integer_axis("block", "threads per block (one element each)", "1024", {"128", "1024"}, 32, 1024, true);
}

} // namespace

algorithm_entry ink_entry() {
  return {
      .info = {.api = "cuda",
               .name = "ink",
               .summary =
                   "InK-style (Hughes et al. 2013, as the blog post codes it): __syncthreads_count block counts, scan, "
                   "ballot/popc move; out of place",
               .stable = true,
               .in_place = false,
               .input = input_kind::predicate,
               .axes = {ink_block_axis()}},
      .make = [] { return std::make_unique<ink>(false); }};
}

algorithm_entry ink_atomic_entry() {
  return {
      .info = {.api = "cuda",
               .name = "ink_atomic",
               .summary =
                   "InK-Compact's one kernel (Hughes et al. 2013): each block counts (__syncthreads_count), takes its "
                   "output range by atomicAdd on the running count and moves by ballot/popc ranks; blocks in "
                   "arrival order (unstable); out of place",
               .stable = false,
               .in_place = false,
               .input = input_kind::predicate,
               .axes = {ink_block_axis()}},
      .make = [] { return std::make_unique<ink>(true); }};
}

} // namespace winnow::cuda
