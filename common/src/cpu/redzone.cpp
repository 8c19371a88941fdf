// cpu/redzone — Redzone Algorithm 2 on oneTBB (Bontes & Gain 2024), Algorithm 3 load balancing.
#include "winnow/cpu/redzone.hpp"

#include <oneapi/tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <execution>
#include <numeric>

#include "algorithms.hpp"
#include "cpu_algorithm.hpp"
#include "winnow/error.hpp"
#include "winnow/host_memory.hpp"
#include "winnow/redzone_pairs.hpp"
#include "winnow/removed_mask.hpp"

namespace winnow::cpu {
namespace {

/// Algorithm 3: the batch that holds global orphan number t, given the inclusive prefix sums S of
/// the per-batch orphan counts and the batch size s (no batch holds more than s orphans, so the
/// batch is at least t/s: start there and walk forward).
std::size_t load_balance(const std::vector<std::size_t>& inclusive, std::size_t t, std::size_t s) {
  std::size_t index = t / s;
  while (t >= inclusive[index]) ++index;
  return index;
}

} // namespace

redzone_report redzone_compact(std::span<std::uint32_t> a, std::span<std::uint32_t> r, std::size_t batches, timer* t) {
  using oneapi::tbb::blocked_range;
  using oneapi::tbb::parallel_for;
  const std::size_t n = a.size(), k = r.size();
  redzone_report report;
  if (t) t->phase("mark");
  if (k == 0 || k == n) return report; // line 1: nothing to move
  const std::size_t z = n - k;         // the red zone is a[z, n)

  // Phase 1: a red-zone item that is itself removed must not become a source (payload 0).
  std::atomic<std::size_t> zone_removals{0};
  parallel_for(blocked_range<std::size_t>(0, k), [&](const auto& range) {
    std::size_t hits = 0;
    for (std::size_t i = range.begin(); i != range.end(); ++i)
      if (r[i] >= z) {
        a[r[i]] = 0;
        ++hits;
      }
    zone_removals += hits;
  });
  report.zone_removals = zone_removals;

  if (t) t->phase("fill");
  // Phase 2: batch p pairs source a[z+i] with destination r[i] for its slice of i. Orphans are kept
  // in place at the front of the batch's own slice of Z (sources) and of R (destinations): the
  // write index never passes the read index, and batches never touch each other's slices.
  const std::size_t p_count = std::max<std::size_t>(1, std::min(batches, k));
  const std::size_t s = (k + p_count - 1) / p_count;
  const std::size_t used = (k + s - 1) / s; // batches that own at least one item
  report.source_orphans.assign(used, 0);
  report.destination_orphans.assign(used, 0);
  parallel_for(blocked_range<std::size_t>(0, used, 1), [&](const auto& range) {
    for (std::size_t p = range.begin(); p != range.end(); ++p) {
      const std::size_t start = p * s, end = std::min(k, start + s);
      std::size_t j = 0, d = 0;
      for (std::size_t i = start; i < end; ++i) {
        const std::uint32_t src = a[z + i], dst = r[i];
        if (dst >= z) {
          if (src != 0) a[z + start + j++] = src; // case D: source orphan
        } else if (src == 0) {
          r[start + d++] = dst; // case C: destination orphan
        } else {
          a[dst] = src; // case A: fill the hole
        }
      }
      report.source_orphans[p] = j;
      report.destination_orphans[p] = d;
    }
  });

  if (t) t->phase("orphans");
  // Phase 3: the t-th source orphan (across batches) fills the t-th destination orphan.
  std::vector<std::size_t> js(used), ks(used);
  std::partial_sum(report.source_orphans.begin(), report.source_orphans.end(), js.begin());
  std::partial_sum(report.destination_orphans.begin(), report.destination_orphans.end(), ks.begin());
  const std::size_t total = js.back();
  if (total != ks.back())
    throw error("cpu/redzone: " + std::to_string(total) + " source orphans but " + std::to_string(ks.back()) +
                " destination orphans (R has duplicates or an index ≥ n?)");
  parallel_for(blocked_range<std::size_t>(0, total), [&](const auto& range) {
    // Load balancing once per chunk, then walk (as the authors' CPU code does).
    std::size_t bj = load_balance(js, range.begin(), s), bk = load_balance(ks, range.begin(), s);
    for (std::size_t g = range.begin(); g != range.end(); ++g) {
      while (g >= js[bj]) ++bj;
      while (g >= ks[bk]) ++bk;
      const std::size_t sj = g - (js[bj] - report.source_orphans[bj]);
      const std::size_t sk = g - (ks[bk] - report.destination_orphans[bk]);
      a[r[bk * s + sk]] = a[z + bj * s + sj];
    }
  });
  return report;
}

namespace {

class redzone final : public cpu_algorithm {
public:
  ~redzone() override { recycle(m_r); }
  void prepare(const workload& w, const param_set& p, const prepare_options& o) override {
    cpu_algorithm::prepare(w, p, o);
    resize_zeroed(m_r, w.removals.size()); // huge pages: host_memory.hpp
    m_batches = static_cast<std::size_t>(p.integer("batches"));
    // The orphan count is fixed by the data (pairs a[z+i] ↔ R[i]), so the traffic model is exact;
    // counted from the case's own removal mask, made once for all its records.
    const redzone_pairs pairs = count_redzone_pairs(w, *removed_mask(w, o.copies));
    m_zone = pairs.zone;
    m_orphans = pairs.zone_kept;
  }
  void reset() override {
    cpu_algorithm::reset();
    // §4.6: the gains are not in the array before the run; the run appends them (zeros here, so a
    // run that skipped the append could not pass verification).
    std::fill(m_a.end() - static_cast<std::ptrdiff_t>(m_w->gains), m_a.end(), 0u);
    std::copy(m_w->removals.begin(), m_w->removals.end(), m_r.begin());
  }
  void run(timer& t) override {
    if (m_w->gains) { // §4.6, adding and removing in one operation: append G, then Alg. 2 over A + G
      t.phase("append");
      const auto tail = static_cast<std::ptrdiff_t>(m_w->gains);
      in_arena(
          [&] { std::copy(std::execution::par_unseq, m_w->data.end() - tail, m_w->data.end(), m_a.end() - tail); });
    }
    in_arena([&] { redzone_compact(m_a, m_r, m_batches, &t); });
  }
  compaction_output result() override { return hand_over(m_a, m_w->kept(), false); }
  traffic bytes_moved() const override {
    const std::uint64_t k = m_r.size(), j = m_w->gains;
    if (k == 0 || k == m_w->size()) return {4 * j, 4 * j};
    // append: read G, write it after A; mark: read R, write the zone hits; fill: read a[z+i] and
    // R[i], one write each; orphans: read R' and Z', write a.
    return {4 * j + 4 * k + 8 * k + 8 * m_orphans, 4 * j + 4 * m_zone + 4 * k + 4 * m_orphans};
  }

private:
  std::vector<std::uint32_t> m_r;
  std::size_t m_batches = 1, m_zone = 0, m_orphans = 0;
};

} // namespace

algorithm_entry redzone_entry() {
  const auto hw = threads_axis().default_value;
  return {.info = {.api = "cpu",
                   .name = "redzone",
                   .summary = "Redzone Alg. 2 (Bontes & Gain 2024) on oneTBB: in place, O(k), unstable; "
                              "appends a case's gains first (§4.6 add and remove, O(j + k))",
                   .stable = false,
                   .in_place = true,
                   .input = input_kind::removal_list,
                   .axes = {threads_axis(),
                            integer_axis("batches", "|P| of Alg. 2: slices of R with their own orphan counts", hw,
                                         {"1", "7", "64"}, 1, 1 << 20)}},
          .make = [] { return std::make_unique<redzone>(); }};
}

} // namespace winnow::cpu
