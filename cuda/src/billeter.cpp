// cuda/billeter, cuda/billeter_scan, cuda/billeter_split — Billeter, Olsson & Assarsson 2009:
// count / scan / move with P virtual processors (warps), its chunked L2 mode, its global prefix sum
// (§5.2) and its stream split (§5.3). Kernels and their design: kernels/billeter.cu.
#include <algorithm>

#include "algorithms.hpp"
#include "check.hpp"
#include "cuda_algorithm.hpp"
#include "dispatch/billeter.hpp"
#include "dispatch/cub.hpp"
#include "dispatch/mark.hpp"
#include "dispatch/scan.hpp"
#include "primitives.hpp"
#include "tuning.hpp"
#include "winnow/error.hpp"

namespace winnow::cuda {
namespace {

constexpr std::size_t warps_per_block = tuning::billeter_block / 32;
/// A warp step moves 32 lanes × 16 bytes; chunks are whole steps of the widest element count.
constexpr std::size_t step_align = 128;

/// P: enough warps to fill every SM (`share` of the slots: the chunked grid has two halves), but no
/// more than one step of work each.
unsigned billeter_blocks(const billeter_config& c, std::size_t elements, std::size_t share) {
  const auto& p = context::get().props();
  const std::size_t slots = static_cast<std::size_t>(p.sms) * static_cast<std::size_t>(billeter_occupancy(c)) / share;
  const std::size_t step = 32 * (4 / c.words);
  const std::size_t useful = (elements + step * warps_per_block - 1) / (step * warps_per_block);
  return static_cast<unsigned>(std::clamp<std::size_t>(useful, 1, std::max<std::size_t>(slots, 1)));
}

/// The shared part of the three: a configuration and the device state of count / scan.
class billeter_base : public cuda_algorithm {
protected:
  void prepare_state(std::size_t chunk_elements, std::size_t share) {
    m_cfg.chunk = std::max<std::size_t>(chunk_elements, 1);
    m_cfg.chunks = std::max<std::size_t>(1, (m_n + m_cfg.chunk - 1) / m_cfg.chunk);
    m_cfg.blocks = billeter_blocks(m_cfg, std::min(m_n, m_cfg.chunk), share);
    const std::size_t warps = static_cast<std::size_t>(m_cfg.blocks) * warps_per_block;
    m_counts.resize(2 * warps);
    m_offsets.resize(2 * warps);
    m_chunk.resize(2 * m_cfg.chunks);
    m_done.resize(1);
    WINNOW_CUDA_CHECK(cudaMemsetAsync(m_done.get(), 0, sizeof(unsigned), stream()));
  }
  [[nodiscard]] billeter_state state(const void* in, void* out) const {
    return {in, out, m_n, m_counts.get(), m_offsets.get(), m_chunk.get(), m_count.get(), m_done.get()};
  }
  [[nodiscard]] std::uint64_t warps() const { return static_cast<std::uint64_t>(m_cfg.blocks) * warps_per_block; }

  billeter_config m_cfg;
  device_buffer<std::uint32_t> m_counts, m_offsets;
  device_buffer<unsigned long long> m_chunk;
  device_buffer<unsigned> m_done;
};

class billeter final : public billeter_base {
public:
  void run(timer& t) override {
    mark(t, m_in.get(), m_cfg.words);
    t.phase("count");
    if (m_n == 0) return;
    const billeter_state s = state(m_in.get(), m_out.get());
    if (m_cfg.chunks == 1 && !m_chunked) {
      billeter_count(s, m_cfg, stream());
      t.phase("scan");
      billeter_scan(s, m_cfg, stream());
      t.phase("move");
      billeter_move(s, m_cfg, stream());
      m_launches += 3;
    } else {
      billeter_chunk_prologue(s, m_cfg, stream());
      t.phase("move");
      for (std::size_t c = 0; c < m_cfg.chunks; ++c) billeter_chunk_step(s, m_cfg, c, stream());
      m_launches += 1 + m_cfg.chunks;
    }
  }

protected:
  device_result output() override {
    const std::size_t count = m_n ? read_count() : 0;
    check_count(count, "winnow::cuda::billeter");
    return {.who = "winnow::cuda::billeter",
            .values = m_out.get(),
            .count = count,
            .words = m_cfg.words,
            .input_after = m_in.get()};
  }

  void prepare_device(const param_set& p) override {
    m_cfg.compact = p.choice<compact_kind>("compact", {{"prefix", compact_kind::prefix}, {"popc", compact_kind::popc}});
    m_cfg.output = p.choice<output_kind>("output", {{"staged", output_kind::staged},
                                                    {"scattered", output_kind::scattered},
                                                    {"buffered", output_kind::buffered},
                                                    {"selective", output_kind::selective}});
    m_cfg.words = p.choice<unsigned>("element", {{"32", 1}, {"64", 2}, {"128", 4}});
    const std::size_t chunk_kib = param_size(p, "chunk");
    std::size_t chunk = m_n;
    m_chunked = false;
    if (chunk_kib > 0) {
      chunk = (chunk_kib * 1024 / (4 * m_cfg.words) + step_align - 1) / step_align * step_align;
      m_chunked = true;
    }
    prepare_state(chunk, m_chunked ? 2 : 1);

    m_in_pristine.resize(m_n * m_cfg.words);
    if (m_cfg.words == 1) m_in_pristine.copy_from(m_pristine, stream());
    else launch_widen(m_in_pristine.get(), m_cfg.words, m_pristine.get(), m_n, stream());
    m_in.resize(m_n * m_cfg.words);
    m_out.resize(m_n * m_cfg.words);
  }
  void reset_device() override { m_in.copy_from(m_in_pristine, stream()); }
  traffic traffic_model() const override {
    const traffic mark = mark_traffic();
    const std::uint64_t e = 4ull * m_cfg.words, n = m_n, v = m_w->kept();
    // count reads the stream; move reads it again — from DRAM, or from L2 in chunked mode, which
    // this model then does not count — and writes the kept elements; P counts and offsets.
    const std::uint64_t move_read = m_chunked ? 0 : e * n;
    return {mark.read + e * n + move_read + 12 * warps() * m_cfg.chunks,
            mark.written + e * v + 8 * warps() * m_cfg.chunks, 0};
  }

private:
  bool m_chunked = false;
  device_buffer<std::uint32_t> m_in_pristine, m_in, m_out;
};

/// §5.2: Billeter's global prefix sum (here of the valid flags), then a scatter — the CUDPP-style
/// compaction the paper compares with, with the prefix sum computed by Billeter's method or by CUB.
class billeter_prefix_sum final : public billeter_base {
public:
  void run(timer& t) override {
    mark(t, m_a.get());
    if (m_cub) {
      t.phase("prefix");
      if (m_n == 0) return;
      cub_flag_sum(m_temp.get(), m_temp.bytes(), m_a.get(), m_prefix.get(), m_n, stream());
      m_launches += 2; // CUB's scan: an init and a look-back kernel
    } else {
      t.phase("count");
      if (m_n == 0) return;
      const billeter_state s = state(m_a.get(), nullptr);
      billeter_count(s, m_cfg, stream());
      t.phase("scan");
      billeter_scan(s, m_cfg, stream());
      t.phase("prefix");
      billeter_prefix(s, m_cfg, m_prefix.get(), stream());
      m_launches += 3;
    }
    t.phase("scatter");
    launch_scatter(m_out.get(), m_a.get(), m_prefix.get(), m_n, false, m_count.get(), stream());
    ++m_launches;
  }

protected:
  device_result output() override {
    const std::size_t count = m_n ? read_count() : 0;
    check_count(count, "winnow::cuda::billeter_scan");
    return {.who = "winnow::cuda::billeter_scan", .values = m_out.get(), .count = count, .input_after = m_a.get()};
  }

  void prepare_device(const param_set& p) override {
    m_cub = p.choice<bool>("scan", {{"billeter", false}, {"cub", true}});
    m_cfg.words = 1;
    m_cfg.compact = compact_kind::prefix;
    prepare_state(m_n, 1);
    m_a.resize(m_n);
    m_out.resize(m_n);
    m_prefix.resize(m_n);
    if (m_cub) m_temp.resize(cub_flag_sum_bytes(m_n));
  }
  void reset_device() override { m_a.copy_from(m_pristine, stream()); }
  traffic traffic_model() const override {
    const traffic mark = mark_traffic();
    const std::uint64_t n = m_n;
    // prefix sum: read A (twice for Billeter: count and prefix), write n sums; scatter: read A
    // and the sums, write the kept.
    const std::uint64_t prefix_read = m_cub ? 4 * n : 8 * n;
    return {mark.read + prefix_read + 8 * n, mark.written + 4 * n + 4 * m_w->kept(), 0};
  }

private:
  bool m_cub = false;
  device_buffer<std::uint32_t> m_a, m_out, m_prefix;
  device_buffer<std::uint8_t> m_temp;
};

/// §5.3: stream split — valid elements compacted to the front, invalid ones after them, both in
/// stream order. result() returns the front and checks the back holds exactly the invalid ones.
class billeter_split final : public billeter_base {
public:
  void run(timer& t) override {
    mark(t, m_a.get());
    t.phase("count");
    if (m_n == 0) return;
    const billeter_state s = state(m_a.get(), m_out.get());
    billeter_count(s, m_cfg, stream());
    t.phase("scan");
    billeter_scan(s, m_cfg, stream());
    t.phase("move");
    billeter_split_move(s, m_cfg, stream());
    m_launches += 3;
  }

protected:
  device_result output() override {
    const std::size_t count = m_n ? read_count() : 0;
    check_count(count, "winnow::cuda::billeter_split");
    return {.who = "winnow::cuda::billeter_split",
            .values = m_out.get(),
            .count = count,
            .input_after = m_a.get(),
            .zeros_to = m_n};
  }

  void prepare_device(const param_set&) override {
    m_cfg.words = 1;
    prepare_state(m_n, 1);
    m_a.resize(m_n);
    m_out.resize(m_n);
  }
  void reset_device() override {
    m_a.copy_from(m_pristine, stream());
    // The split must write all n outputs: poison them so a missed one shows.
    WINNOW_CUDA_CHECK(cudaMemsetAsync(m_out.get(), 0xFF, m_out.bytes(), stream()));
  }
  traffic traffic_model() const override {
    const traffic mark = mark_traffic();
    return {mark.read + 8ull * m_n, mark.written + 4ull * m_n, 0};
  }

private:
  device_buffer<std::uint32_t> m_a, m_out;
};

} // namespace

billeter_pass::billeter_pass(std::size_t n, unsigned words) : m_n(n) {
  if (words != 1 && words != 2 && words != 4)
    throw error("winnow::cuda::billeter_pass: element of " + std::to_string(words) + " words (1, 2 or 4)");
  m_cfg.words = words;
  m_cfg.chunk = std::max<std::size_t>(n, 1);
  m_cfg.blocks = billeter_blocks(m_cfg, n, 1);
  const std::size_t warps = static_cast<std::size_t>(m_cfg.blocks) * warps_per_block;
  m_counts.resize(warps);
  m_offsets.resize(warps);
  m_chunk.resize(2);
  m_total.resize(1);
}

billeter_state billeter_pass::state(const void* d_in, void* d_out) const {
  // No last-block-done ticket: the scan is a kernel of its own here.
  return {d_in, d_out, m_n, m_counts.get(), m_offsets.get(), m_chunk.get(), m_total.get(), nullptr};
}

void value_prefix_sum::run(const std::uint32_t* d_in, std::uint32_t* d_out, cudaStream_t stream) const {
  if (m_pass.size() == 0) return;
  const billeter_state s = m_pass.state(d_in, d_out);
  billeter_value_sum(s, m_pass.config(), stream);
  billeter_scan(s, m_pass.config(), stream);
  billeter_value_prefix(s, m_pass.config(), d_out, stream);
}

void split_radix_sort::run(void* d_a, void* d_b, unsigned bits, cudaStream_t stream) const {
  const billeter_config& c = m_pass.config();
  if (bits > 32) throw error("winnow::cuda::split_radix_sort: " + std::to_string(bits) + " key bits (at most 32)");
  if (m_pass.size() == 0) return;
  for (unsigned bit = 0; bit < bits; ++bit) {
    const billeter_state s = bit % 2 == 0 ? m_pass.state(d_a, d_b) : m_pass.state(d_b, d_a);
    billeter_radix_count(s, c, bit, stream);
    billeter_scan(s, c, stream);
    billeter_radix_split(s, c, bit, stream);
  }
  if (bits % 2 == 1)
    WINNOW_CUDA_CHECK(cudaMemcpyAsync(d_a, d_b, m_pass.size() * 4 * c.words, cudaMemcpyDeviceToDevice, stream));
}

algorithm_entry billeter_entry() {
  return {
      .info =
          {.api = "cuda",
           .name = "billeter",
           .summary =
               "Billeter et al. 2009: count / scan / move over P warps; compactSIMD by prefix sum or POPC; staged, "
               "scattered, buffered or selective output; 32/64/128-bit elements; chunked L2 mode; out of place",
           .stable = true,
           .in_place = false,
           .input = input_kind::predicate,
           .axes = {choice_axis("compact", "compactSIMD: shuffle prefix sum (§3.3) or ballot + POPC (§3.4)", "popc",
                                {"prefix", "popc"}),
                    choice_axis("output",
                                "staged (shared memory), scattered (direct), buffered (whole aligned steps, §3.5), "
                                "selective (staged or scattered per warp by density)",
                                "staged", {"staged", "scattered", "buffered", "selective"}),
                    choice_axis("element", "element size in bits; payload in the first 32, the rest derived from it",
                                "32", {"32", "64", "128"}),
                    integer_axis("chunk",
                                 "chunked mode: KiB of input per chunk (count chunk c+1 into L2 while moving chunk c); "
                                 "0 = off",
                                 "0", {"0", "256"}, 0, 1 << 22)}},
      .make = [] { return std::make_unique<billeter>(); }};
}

algorithm_entry billeter_scan_entry() {
  return {.info = {.api = "cuda",
                   .name = "billeter_scan",
                   .summary = "Billeter et al. §5.2: a global prefix sum of the valid flags (Billeter's count / scan / "
                              "prefix, or CUB's "
                              "DeviceScan), then a scatter; out of place",
                   .stable = true,
                   .in_place = false,
                   .input = input_kind::predicate,
                   .axes = {choice_axis("scan", "who computes the prefix sum", "billeter", {"billeter", "cub"})}},
          .make = [] { return std::make_unique<billeter_prefix_sum>(); }};
}

algorithm_entry billeter_split_entry() {
  return {.info = {.api = "cuda",
                   .name = "billeter_split",
                   .summary = "Billeter et al. §5.3 stream split: valid elements to the front, invalid ones behind "
                              "them, both in order; "
                              "out of place",
                   .stable = true,
                   .in_place = false,
                   .input = input_kind::predicate,
                   .axes = {}},
          .make = [] { return std::make_unique<billeter_split>(); }};
}

} // namespace winnow::cuda
