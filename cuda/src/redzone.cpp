// cuda/redzone1 and cuda/redzone2 — Redzone stream compaction (Bontes & Gain 2024): the host entry
// points. Kernels and their design: kernels/redzone.cu.
#include <algorithm>
#include <memory>
#include <string>
#include <utility>

#include "algorithms.hpp"
#include "check.hpp"
#include "case_input.hpp"
#include "cuda_algorithm.hpp"
#include "dispatch/redzone.hpp"
#include "event_timer.hpp"
#include "tuning.hpp"
#include "winnow/cuda/redzone.hpp"
#include "winnow/error.hpp"
#include "winnow/redzone_pairs.hpp"

namespace winnow::cuda {
namespace {

class redzone final : public cuda_algorithm {
public:
  explicit redzone(bool single_block) : m_single(single_block) {}

  void run(timer& t) override {
    if (const std::size_t j = m_w->gains) {
      // §4.6, adding and removing in one operation: append G after A (the gains wait in the
      // pristine copy's tail), then Redzone over A + G with the same R.
      t.phase("append");
      WINNOW_CUDA_CHECK(cudaMemcpyAsync(m_a.get() + (m_n - j), m_pristine.get() + (m_n - j), 4 * j,
                                        cudaMemcpyDeviceToDevice, stream()));
      ++m_launches;
    }
    if (m_bitmap) {
      // Counted inside the run, as every order is; no mark and no orphans phase exist here.
      t.phase("order");
      if (!trivial())
        redzone_bitmap_order(m_plan, m_order_temp.get(), m_r.get(), m_k, m_r_ordered.get(), m_stats.get(), stream());
      t.phase("fill");
      if (!trivial()) {
        redzone_bitmap_fill(m_state, m_plan, m_r_ordered.get(), stream());
        m_launches += 6; // count, CUB's scan (init + scan), scatter, sort, fill
      }
      return;
    }
    if (m_order_bits.second > m_order_bits.first && !trivial()) {
      // Counted inside the run: the order is part of the algorithm's cost.
      t.phase("order");
      redzone_order(m_order_temp.get(), m_order_temp.bytes(), m_r.get(), m_r_ordered.get(), m_k, m_order_bits.first,
                    m_order_bits.second, stream());
      ++m_launches;
    }
    t.phase("mark");
    redzone_mark(m_state, m_mark_blocks, m_single, stream());
    t.phase("fill");
    if (m_single) redzone1_fill(m_state, stream());
    else redzone2_fill(m_state, m_cfg, stream());
    t.phase("orphans");
    if (m_single) redzone1_orphans(m_state, stream());
    else redzone2_orphans(m_state, m_cfg, stream());
    if (trivial() == false) m_launches += 3;
  }

protected:
  device_result output() override {
    check_status();
    return {.who = "winnow::cuda::redzone", .values = m_a.get(), .count = m_n - m_k};
  }

public:
  redzone_report report() {
    check_status();
    redzone_report r;
    r.a = m_a.download(m_n, stream());
    r.zone_marks = m_stats.download(1, stream())[0];
    const auto created = m_created.download(2 * m_cfg.batches, stream());
    for (std::size_t b = 0; b < m_cfg.batches; ++b) {
      r.source_orphans.push_back(created[2 * b]);
      r.destination_orphans.push_back(created[2 * b + 1]);
    }
    r.batch_size = m_cfg.batch;
    return r;
  }

  /// What it settled for where it was given "auto" or 0: with order=auto the fill it ran, the ordered
  /// one (bitmap) or the paper's (off); with batch=0 the batch its fill ran, sized from this device's
  /// SMs and occupancy (the bitmap fill has no batches).
  [[nodiscard]] params chosen() const override {
    params out;
    if (m_auto_order) out["order"] = m_bitmap ? "bitmap" : "off";
    if (m_auto_batch && !m_bitmap) out["batch"] = std::to_string(m_cfg.batch);
    return out;
  }

protected:
  void prepare_device(const param_set& p) override {
    m_a.resize(m_n);
    m_r.resize(m_k);
    if (m_single) {
      m_cfg.batch = std::max<std::size_t>(m_k, 1);
      m_cfg.batches = 1;
    } else {
      m_cfg.early = p.on("early");
      m_cfg.shared = p.on("shared");
      m_cfg.prefetch = p.on("prefetch");
      m_auto_order = p.text("order") == "auto";
      m_bitmap = p.text("order") == "bitmap" || (m_auto_order && bitmap_pays());
      m_order_bits = m_bitmap ? std::pair{0, 0} : order_bits(p.text("order"));
      const std::size_t tile = static_cast<std::size_t>(tuning::redzone_block) * tuning::redzone_items;
      std::size_t batch = param_size(p, "batch");
      m_auto_batch = batch == 0;
      if (batch == 0) {
        // Auto: whole tiles, as few batches as fill every SM once (one block per batch).
        const std::size_t slots =
            static_cast<std::size_t>(device().sms) * static_cast<std::size_t>(redzone2_fill_occupancy(m_cfg));
        const std::size_t tiles = std::max<std::size_t>(1, (m_k + tile - 1) / tile);
        batch = (tiles + slots - 1) / slots * tile;
      }
      m_cfg.batch = batch;
      m_cfg.batches = std::max<std::size_t>(1, (m_k + batch - 1) / batch);
      if (m_cfg.batches > 0x7FFFFFFFu)
        throw usage_error("cuda/redzone2: batch=" + std::to_string(batch) + " gives more batches than a grid holds");
      // Phase 3 moves at most k/2 orphan pairs (|C| = |D| and |C| + |D| ≤ k).
      const std::size_t block = tuning::stream_block;
      const std::size_t resident =
          static_cast<std::size_t>(device().sms) * static_cast<std::size_t>(device().max_threads_per_sm) / block;
      m_cfg.orphan_blocks = static_cast<unsigned>(std::clamp<std::size_t>((m_k / 2 + block) / block, 1, resident));
      const std::size_t mark_resident = resident;
      m_mark_blocks = static_cast<unsigned>(std::clamp<std::size_t>((m_k / 4 + block) / block, 1, mark_resident));
    }
    m_counts.resize(2 * m_cfg.batches);
    m_created.resize(2 * m_cfg.batches);
    m_prefix.resize(2 * (m_cfg.batches + 1));
    m_stats.resize(2);
    m_done.resize(1);
    WINNOW_CUDA_CHECK(cudaMemsetAsync(m_done.get(), 0, sizeof(unsigned), stream()));
    std::uint32_t* r = m_r.get();
    if (m_bitmap) {
      m_plan = redzone_bitmap_plan_for(m_n, m_k);
      m_r_ordered.resize(m_k);
      m_order_temp.resize(m_plan.temp_bytes);
    } else if (m_order_bits.second > m_order_bits.first) {
      // The phases read the ordered copy; m_r keeps R as given, restored by every reset.
      m_r_ordered.resize(m_k);
      m_order_temp.resize(redzone_order_bytes(m_k, m_order_bits.first, m_order_bits.second));
      r = m_r_ordered.get();
    }
    m_state = {m_a.get(), r, m_n, m_k, m_counts.get(), m_created.get(), m_prefix.get(), m_stats.get(), m_done.get()};
    count_cases();
  }

  void reset_device() override {
    m_a.copy_from(m_pristine, stream());
    // The gains are not in A before the run appends them: zeros, so a run that skipped the append
    // fails verification.
    if (const std::size_t j = m_w->gains) WINNOW_CUDA_CHECK(cudaMemsetAsync(m_a.get() + (m_n - j), 0, 4 * j, stream()));
    m_r.copy_from(m_removals, stream());
    WINNOW_CUDA_CHECK(cudaMemsetAsync(m_stats.get(), 0, m_stats.bytes(), stream()));
    WINNOW_CUDA_CHECK(cudaMemsetAsync(m_created.get(), 0, m_created.bytes(), stream()));
  }

  traffic traffic_model() const override {
    traffic t = redzone_traffic();
    t.read += 4 * m_w->gains; // the append: read G, write it after A
    t.written += 4 * m_w->gains;
    return t;
  }

private:
  [[nodiscard]] traffic redzone_traffic() const {
    if (trivial()) return {};
    // mark: read R, write the zone marks; fill: read Z and R, write case A holes and the orphans
    // in place (C to R', D to Z'); orphans: read R' and Z', write the holes. Alg. 2 as written:
    // early pairing and shared orphans write fewer orphans than this counts.
    const std::uint64_t k = m_k;
    if (m_bitmap) {
      // order: count reads R, scatter reads and writes it, sort reads and writes it (the bitmaps
      // stay in shared memory); fill: reads sorted R and the kept zone items, writes the holes.
      const std::uint64_t holes = m_k - m_zone;
      return {12 * k + 4 * k + 4 * holes, 8 * k + 4 * holes, 0};
    }
    // The order: one pass reading R for the histograms, then per 8 bits one pass reading and writing it.
    const int bits = m_order_bits.second - m_order_bits.first;
    const std::uint64_t passes = bits > 0 ? static_cast<std::uint64_t>((bits + 7) / 8) : 0;
    const std::uint64_t order_read = passes ? 4 * k * (passes + 1) : 0, order_written = 4 * k * passes;
    return {4 * k + 8 * k + 8 * m_case_c + order_read,
            4 * m_zone + 4 * m_case_a + 8 * m_case_c + 4 * m_case_c + order_written, 0};
  }

  [[nodiscard]] bool trivial() const { return m_k == 0 || m_k == m_n; }

  /// The bits of an index the order sorts by: none (off, Alg. 2 as published), the top 8 or 16 of
  /// the index range (buckets of 2^(b-8) or 2^(b-16) elements, b = bits of n - 1), or all of them.
  [[nodiscard]] std::pair<int, int> order_bits(const std::string& order) const {
    int b = 0;
    while (b < 32 && (std::uint64_t{1} << b) < m_n) ++b;
    if (order == "top8") return {std::max(0, b - 8), b};
    if (order == "top16") return {std::max(0, b - 16), b};
    if (order == "sort") return {0, b};
    return {0, 0};
  }

  /// auto: order=bitmap where it was faster than Alg. 2's own fill on the H200 (docs/algorithms.md
  /// § Redzone, "The fill's order"): a stream over 4× the L2 (there the fill's scattered writes go
  /// to DRAM; 2^28 at k = 2-50 %), or k ≥ 10 % (2^24 at 10 and 50 %; at 2 and 5 % the order cost
  /// more than it saved while the stream sat in L2).
  [[nodiscard]] bool bitmap_pays() const { return m_n >= device().l2_bytes || 10 * m_k >= m_n; }

  void check_status() {
    const auto stats = m_stats.download(2, stream());
    if (stats[1] != 0)
      throw error(std::string("winnow::cuda::") + (m_single ? "redzone1" : "redzone2") +
                  (m_bitmap ? ": R holds an index twice (order=bitmap set fewer bits than R has entries; duplicates?)"
                            : ": source and destination orphan totals differ (Lemma 4.2; R has duplicates?)"));
  }

  /// The traffic model's case counts (fixed by the data: pairs Z[i] ↔ R[i]).
  void count_cases() {
    // Fixed by the case: counted once for all its records, on the device where the case's input is
    // there (an O(k) pass), else on the host (O(n)).
    const case_input* in = shared_input(m_copies, *m_w, stream());
    const auto count = [&] { return in ? count_redzone_pairs(*in, m_n, stream()) : count_redzone_pairs(*m_w); };
    const redzone_pairs pairs =
        m_copies ? m_copies->get<redzone_pairs>("cuda redzone pairs",
                                                [&] { return std::make_unique<redzone_pairs>(count()); })
                 : count();
    m_zone = pairs.zone;
    m_case_a = pairs.hole_kept;
    m_case_c = pairs.hole_removed;
  }

  bool m_single;
  bool m_bitmap = false;     ///< order=bitmap: sorted R, holes paired with kept zone items in address order
  bool m_auto_order = false; ///< order=auto: the record says which order it chose (chosen())
  bool m_auto_batch = false; ///< batch=0: the record says the batch this device got (chosen())
  redzone_bitmap_plan m_plan;
  redzone2_config m_cfg;
  redzone_state m_state;
  unsigned m_mark_blocks = 1;
  device_buffer<std::uint32_t> m_a, m_r, m_counts, m_created, m_prefix;
  std::pair<int, int> m_order_bits{0, 0}; ///< [begin, end) bits R is ordered by before the fill; empty: not ordered
  device_buffer<std::uint32_t> m_r_ordered;
  device_buffer<std::uint8_t> m_order_temp;
  device_buffer<unsigned long long> m_stats;
  device_buffer<unsigned> m_done;
  std::uint64_t m_zone = 0, m_case_a = 0, m_case_c = 0;
};

param_axis batch_axis() {
  return integer_axis("batch", "items of R per batch (one block each, Alg. 2's s); 0 = fill every SM once", "0",
                      {"0", "100"}, 0, 0xFFFFFFFFll);
}

} // namespace

redzone_report run_redzone(const std::string& name, const workload& w, const params& p) {
  const bool single = name == "redzone1";
  if (!single && name != "redzone2")
    throw usage_error("winnow::cuda::run_redzone: '" + name + "' (redzone1 or redzone2)");
  const algorithm_entry e = single ? redzone1_entry() : redzone2_entry();
  redzone a(single);
  a.prepare(w, resolve_params(e.info, p), {});
  a.reset();
  event_timer t(context::get().stream());
  t.start();
  a.run(t);
  t.stop();
  return a.report();
}

algorithm_entry redzone1_entry() {
  return {.info = {.api = "cuda",
                   .name = "redzone1",
                   .summary =
                       "Redzone Alg. 1 (Bontes & Gain 2024) on one block of 1024 threads: ballot/popc orphan slots, "
                       "orphans in place; in place, O(k), unstable; appends a case's gains first (§4.6)",
                   .stable = false,
                   .in_place = true,
                   .input = input_kind::removal_list,
                   .axes = {},
                   .relative_cost = 50},
          .make = [] { return std::make_unique<redzone>(true); }};
}

algorithm_entry redzone2_entry() {
  return {
      .info =
          {.api = "cuda",
           .name = "redzone2",
           .summary =
               "Redzone Alg. 2 + Alg. 3 load balancing over the whole GPU; phases mark, fill, orphans are kernels; "
               "§6 optimizations as parameters; in place, O(k), unstable; appends a case's gains first (§4.6, O(j + "
               "k))",
           .stable = false,
           .in_place = true,
           .input = input_kind::removal_list,
           .axes =
               {batch_axis(),
                on_off_axis("early", "§6: pair source and destination orphans inside the block in phase 2", "on"),
                on_off_axis("shared", "§6: keep orphans in shared memory, write them once", "on"),
                on_off_axis("prefetch", "§6: load the next tile of R and Z before working on this one", "off"),
                choice_axis(
                    "order",
                    "order R before the fill so its writes land bucket by bucket (top8, top16: a radix sort of the "
                    "index's high 8 or 16 bits) or in address order (sort); bitmap: R bucketed by its high bits and "
                    "each bucket sorted through a shared-memory bitmap, then the j-th kept red-zone item fills the "
                    "j-th hole (no mark, no orphans; O(k + n/32)); auto: bitmap where it pays (a stream over 4× the "
                    "L2, or k ≥ 10 %), else off; off: Alg. 2 as published",
                    "off", {"off", "top8", "top16", "sort", "auto", "bitmap"})}},
      .make = [] { return std::make_unique<redzone>(false); }};
}

} // namespace winnow::cuda
