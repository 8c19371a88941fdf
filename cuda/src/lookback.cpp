// cuda/lookback — winnow's single-pass stable compaction: one kernel reads the stream once and
// writes the survivors once, tiles finding their output offsets by decoupled look-back
// (kernels/lookback.cu). 32-, 64- and 128-bit elements; out of place or in place.
// Example, tiles of 4: x = 5 0 0 8 | 0 6 7 0 → tile 0 keeps 2 and publishes "prefix 2"; tile 1 keeps
// 2, reads tile 0's prefix, writes 6 7 at 2 → 5 8 6 7.
#include "algorithms.hpp"
#include "check.hpp"
#include "cuda_algorithm.hpp"
#include "dispatch/lookback.hpp"
#include "dispatch/mark.hpp"
#include "lookback_tuning.hpp"

namespace winnow::cuda {
namespace {

class lookback final : public cuda_algorithm {
public:
  void run(timer& t) override {
    mark(t, m_in.get(), m_words);
    t.phase("compact");
    if (m_n == 0) return;
    if (++m_epoch == (1u << 30)) {
      // The epoch field is 30 bits: once in 2^30 runs the states are cleared (no run ever sees it).
      WINNOW_CUDA_CHECK(cudaMemsetAsync(m_status.get(), 0, m_status.bytes(), stream()));
      WINNOW_CUDA_CHECK(cudaMemsetAsync(m_counter.get(), 0, m_counter.bytes(), stream()));
      m_epoch = 1;
      m_taken = 0;
    }
    const lookback_state s{m_in.get(),
                           m_in_place ? m_in.get() : m_out.get(),
                           m_n,
                           m_status.get(),
                           m_counter.get(),
                           m_count.get(),
                           m_epoch,
                           m_taken,
                           m_prefetch,
                           m_pause_ns};
    m_taken += lookback_compact(s, m_kernel, stream());
    ++m_launches;
  }

protected:
  device_result output() override {
    const std::size_t count = m_n ? read_count() : 0;
    check_count(count, "winnow::cuda::lookback");
    return {.who = "winnow::cuda::lookback",
            .values = (m_in_place ? m_in : m_out).get(),
            .count = count,
            .words = m_words,
            .input_after = m_in_place ? nullptr : m_in.get()};
  }

  /// What tile=auto and pause=auto settled for on this device (lookback_tuning.hpp); a spinning
  /// look-back never pauses, so it names no pause.
  [[nodiscard]] params chosen() const override {
    params out;
    if (!m_asked.shape) out["tile"] = m_kernel.shape;
    if (!m_asked.pause_ns && m_kernel.wait != "spin") out["pause"] = std::to_string(m_pause_ns);
    return out;
  }
  /// What the choice weighed: the probe's medians of every candidate.
  [[nodiscard]] params notes() const override { return m_weighed.empty() ? params{} : params{{"tuning", m_weighed}}; }

  void prepare_device(const param_set& p) override {
    m_words = p.choice<unsigned>("element", {{"32", 1}, {"64", 2}, {"128", 4}});
    m_in_place = p.choice<bool>("place", {{"out", false}, {"in", true}});
    m_asked = {};
    if (p.text("tile") != "auto") m_asked.shape = p.text("tile");
    if (p.text("pause") != "auto") m_asked.pause_ns = static_cast<unsigned>(p.integer("pause"));
    const auto prefetch = static_cast<unsigned>(p.integer("prefetch"));
    const auto [tuned, weighed] = tuned_lookback(m_asked, m_words, p.text("wait"), p.text("store"), prefetch, stream());
    m_weighed = weighed;
    m_kernel = {m_words, tuned.shape, p.text("wait"), p.text("store")};
    lookback_prepare(m_kernel);
    m_prefetch = std::size_t{prefetch} * m_kernel.sms;
    m_pause_ns = tuned.pause_ns;
    const std::size_t tile = lookback_tile(m_words, m_kernel.shape);
    m_tiles = (m_n + tile - 1) / tile;
    m_in_pristine.resize(m_n * m_words);
    if (m_words == 1) m_in_pristine.copy_from(m_pristine, stream());
    else launch_widen(m_in_pristine.get(), m_words, m_pristine.get(), m_n, stream());
    m_in.resize(m_n * m_words);
    if (!m_in_place) m_out.resize(m_n * m_words);
    m_status.resize(m_tiles);
    m_counter.resize(1);
    WINNOW_CUDA_CHECK(cudaMemsetAsync(m_status.get(), 0, m_status.bytes(), stream()));
    WINNOW_CUDA_CHECK(cudaMemsetAsync(m_counter.get(), 0, m_counter.bytes(), stream()));
    m_epoch = 0;
    m_taken = 0;
  }
  void reset_device() override { m_in.copy_from(m_in_pristine, stream()); }
  traffic traffic_model() const override {
    // The stream once in, the survivors once out; each tile writes its state twice and reads a few.
    const traffic mark = mark_traffic();
    const std::uint64_t e = 4ull * m_words;
    return {mark.read + e * m_n + 8 * m_tiles, mark.written + e * m_w->kept() + 16 * m_tiles, 0};
  }

private:
  unsigned m_words = 1;
  lookback_kernel m_kernel;
  lookback_request m_asked; ///< the knobs given; the others were "auto"
  std::string m_weighed;    ///< what tile/pause=auto weighed (lookback_choice::weighed)
  bool m_in_place = false;
  std::size_t m_tiles = 0, m_prefetch = 0;
  unsigned m_pause_ns = 0;
  std::uint32_t m_epoch = 0;
  unsigned long long m_taken = 0;
  device_buffer<std::uint32_t> m_in_pristine, m_in, m_out;
  device_buffer<unsigned long long> m_status, m_counter;
};

std::vector<std::string> tile_choices() {
  std::vector<std::string> out{"auto"};
  for (const auto& s : lookback_shapes()) out.push_back(s);
  return out;
}

} // namespace

algorithm_entry lookback_entry() {
  return {
      .info =
          {.api = "cuda",
           .name = "lookback",
           .summary = "single-pass stable compaction: tiles of 32 KiB read once with 16-byte loads (and asked of L2 "
                      "ahead), ranked in the "
                      "block, offsets by decoupled look-back, staged and stored as aligned 16-byte vectors (or each "
                      "survivor at its place); one launch per run",
           .stable = true,
           .in_place = false,
           .input = input_kind::predicate,
           .axes =
               {choice_axis("element", "element size in bits; payload in the first 32, the rest derived from it", "32",
                            {"32", "64", "128"}),
                choice_axis("place", "out: a separate output; in: compacted over the input", "out", {"out", "in"}),
                choice_axis(
                    "tile",
                    "tile shape: threads per block x 16-byte vectors per thread, mK: K blocks per SM, p: persistent "
                    "blocks loading the next tile during the current one; auto: the fastest of 128x16m4 and "
                    "128x16m5 on this device, by a probe at start-up (the record's chosen says which)",
                    "auto", tile_choices()),
                choice_axis("wait",
                            "look-back: sleep (pauses before and between reads of predecessors' states) or spin",
                            lookback_waits().front(), lookback_waits()),
                integer_axis("pause",
                             "ns the sleep wait pauses before its first read of predecessors' states; auto: 1000, 2000 "
                             "or 3000, the fastest on this device by the same probe",
                             "auto", {"2000"}, 0, 1000000, false, {"auto"}),
                integer_axis(
                    "prefetch",
                    "a block asks L2 for the input of the tile this many ids per SM after its own (0: no prefetch)",
                    "2", {"2", "0"}, 0, 64),
                choice_axis("store",
                            "staged: in order through shared memory, then aligned 16-byte vectors; direct: each "
                            "thread stores its survivors at their places (no shared memory); auto: per tile, staged "
                            "where it keeps >= 5/8 of its elements",
                            lookback_stores().front(), lookback_stores())}},
      .make = [] { return std::make_unique<lookback>(); }};
}

} // namespace winnow::cuda
