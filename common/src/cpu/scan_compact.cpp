// cpu/scan_compact — compaction by a scan, sequentially, as the CIS 565 write-up's "CPU compaction
// with scan" (beside cpu/sequential, its "without scan"): map each element to a keep flag, an
// exclusive prefix sum of the flags gives every survivor its place, a scatter writes it there. The
// GPU algorithms' three steps on one core, to show what the scan itself costs where nothing runs in
// parallel.
// Example: x = 5 0 0 8 6 → flags 1 0 0 1 1 → places 0 1 1 1 2 → out = 5 8 6.
#include <numeric>

#include "algorithms.hpp"
#include "cpu_algorithm.hpp"
#include "winnow/host_memory.hpp"

namespace winnow::cpu {
namespace {

class scan_compact final : public cpu_algorithm {
public:
  ~scan_compact() override {
    recycle(m_flags);
    recycle(m_places);
    recycle(m_out);
  }
  void prepare(const workload& w, const param_set& p, const prepare_options& o) override {
    cpu_algorithm::prepare(w, p, o);
    assign_zeroed(m_flags, w.size());
    assign_zeroed(m_places, w.size());
    assign_zeroed(m_out, w.size());
  }
  void run(timer& t) override {
    mark(t, false);
    const std::size_t n = m_a.size();
    t.phase("map");
    for (std::size_t i = 0; i < n; ++i) m_flags[i] = m_a[i] != 0;
    t.phase("scan");
    std::exclusive_scan(m_flags.begin(), m_flags.end(), m_places.begin(), std::uint32_t{0});
    t.phase("scatter");
    // Without a branch: places[i] ≤ i, and a removed element writes at the next survivor's place,
    // which that survivor (later in x) overwrites, or past what is kept.
    for (std::size_t i = 0; i < n; ++i) m_out[m_places[i]] = m_a[i];
    m_end = n ? m_places[n - 1] + m_flags[n - 1] : 0;
  }
  compaction_output result() override { return hand_over(m_out, m_end, true); }
  traffic bytes_moved() const override {
    // map: x in, flags out; scan: flags in, places out; scatter: places and x in, every element out.
    const traffic m = mark_traffic();
    const std::uint64_t n = 4 * m_w->size();
    return {m.read + 4 * n, m.written + 3 * n};
  }

private:
  std::vector<std::uint32_t> m_flags, m_places, m_out;
  std::size_t m_end = 0;
};

} // namespace

algorithm_entry scan_compact_entry() {
  return {.info = {.api = "cpu",
                   .name = "scan_compact",
                   .summary =
                       "map to keep flags, exclusive scan, scatter, on one core (CIS 565's CPU compaction with scan)",
                   .stable = true,
                   .in_place = false,
                   .input = input_kind::predicate,
                   .axes = {},
                   .relative_cost = 3},
          .make = [] { return std::make_unique<scan_compact>(); }};
}

} // namespace winnow::cpu
