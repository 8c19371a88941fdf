// cpu/stencil — Bernabé and Acacio's Algorithm 2 as the Redzone paper §5.3 describes it: mark a
// byte stencil, count the kept elements per chunk and scan the counts, then move every chunk's
// kept elements to its offset in a separate output.
#include <oneapi/tbb/parallel_for.h>

#include <algorithm>

#include "algorithms.hpp"
#include "cpu_algorithm.hpp"
#include "winnow/host_memory.hpp"

namespace winnow::cpu {
namespace {

class stencil final : public cpu_algorithm {
public:
  ~stencil() override {
    recycle(m_stencil);
    recycle(m_out);
  }
  void prepare(const workload& w, const param_set& p, const prepare_options& o) override {
    cpu_algorithm::prepare(w, p, o);
    assign_zeroed(m_stencil, w.size());
    assign_zeroed(m_out, w.size());
    m_chunks = std::max<std::size_t>(1, std::min(static_cast<std::size_t>(p.integer("chunks")), w.size()));
    m_offsets.assign(m_chunks + 1, 0);
  }
  void reset() override {
    cpu_algorithm::reset();
    // A fresh stencil is all "keep"; the paper allocates it cleared.
    std::fill(m_stencil.begin(), m_stencil.end(), std::uint8_t{0});
  }
  void run(timer& t) override {
    using oneapi::tbb::blocked_range;
    using oneapi::tbb::parallel_for;
    const std::size_t n = m_a.size();
    auto chunk_begin = [&](std::size_t c) { return n * c / m_chunks; };
    in_arena([&] {
      t.phase("mark");
      if (m_w->removal_list) {
        const auto& r = m_w->removals;
        parallel_for(blocked_range<std::size_t>(0, r.size()), [&](const auto& range) {
          for (std::size_t i = range.begin(); i != range.end(); ++i) m_stencil[r[i]] = 1;
        });
      } else {
        parallel_for(blocked_range<std::size_t>(0, n), [&](const auto& range) {
          for (std::size_t i = range.begin(); i != range.end(); ++i) m_stencil[i] = m_a[i] == 0;
        });
      }
      t.phase("count");
      parallel_for(blocked_range<std::size_t>(0, m_chunks, 1), [&](const auto& range) {
        for (std::size_t c = range.begin(); c != range.end(); ++c)
          m_offsets[c + 1] = static_cast<std::size_t>(
              std::count(m_stencil.begin() + static_cast<std::ptrdiff_t>(chunk_begin(c)),
                         m_stencil.begin() + static_cast<std::ptrdiff_t>(chunk_begin(c + 1)), std::uint8_t{0}));
      });
      for (std::size_t c = 0; c < m_chunks; ++c) m_offsets[c + 1] += m_offsets[c];
      t.phase("move");
      parallel_for(blocked_range<std::size_t>(0, m_chunks, 1), [&](const auto& range) {
        for (std::size_t c = range.begin(); c != range.end(); ++c) {
          std::size_t o = m_offsets[c];
          for (std::size_t i = chunk_begin(c); i < chunk_begin(c + 1); ++i)
            if (!m_stencil[i]) m_out[o++] = m_a[i];
        }
      });
    });
  }
  compaction_output result() override { return hand_over(m_out, m_offsets.back(), true); }
  traffic bytes_moved() const override {
    const std::uint64_t n = m_w->size(), k = m_w->removals.size(), v = m_w->kept();
    const traffic mark = m_w->removal_list ? traffic{4 * k, k} : traffic{4 * n, n};
    return {mark.read + n /*count*/ + n + 4 * v /*move*/, mark.written + 4 * v};
  }

private:
  std::vector<std::uint8_t> m_stencil;
  std::vector<std::uint32_t> m_out;
  std::vector<std::size_t> m_offsets;
  std::size_t m_chunks = 1;
};

} // namespace

algorithm_entry stencil_entry() {
  const auto hw = threads_axis().default_value;
  return {.info = {.api = "cpu",
                   .name = "stencil",
                   .summary = "Bernabé & Acacio Alg. 2: byte stencil, per-chunk counts and scan, out-of-place move",
                   .stable = true,
                   .in_place = false,
                   .input = input_kind::predicate,
                   .axes = {threads_axis(), integer_axis("chunks", "contiguous chunks (one count each)", hw,
                                                         {"1", "7", "64"}, 1, 1 << 20)}},
          .make = [] { return std::make_unique<stencil>(); }};
}

} // namespace winnow::cpu
