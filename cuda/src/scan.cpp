// cuda/scan_naive, cuda/scan_efficient and cuda/scan_thrust — map → scan → scatter (the CIS 565
// write-up's GPU compaction) with a global Hillis-Steele scan (one kernel per doubling offset), a
// Blelloch up/down-sweep scan (per block in shared memory, recursively over the block totals), or
// thrust::exclusive_scan. The scan is a phase of its own, so a record times the scan as a scan. Any n.
#include <algorithm>

#include "algorithms.hpp"
#include "cuda_algorithm.hpp"
#include "dispatch/cub.hpp"
#include "dispatch/scan.hpp"
#include "dispatch/thrust.hpp"

namespace winnow::cuda {
namespace {

enum class scan_kind { hillis, blelloch, thrust };

const char* name_of(scan_kind k) {
  return k == scan_kind::hillis ? "winnow::cuda::scan_naive" : k == scan_kind::blelloch ? "winnow::cuda::scan_efficient"
                                                                                        : "winnow::cuda::scan_thrust";
}

class scan_compaction final : public cuda_algorithm {
public:
  explicit scan_compaction(scan_kind k) : m_kind(k) {}

  void run(timer& t) override {
    mark(t, m_a.get());
    t.phase("map");
    if (m_n == 0) return;
    launch_map(m_flags.get(), m_a.get(), m_n, stream());
    ++m_launches;
    t.phase("scan");
    const std::uint32_t* prefix = scan();
    t.phase("scatter");
    launch_scatter(m_out.get(), m_a.get(), prefix, m_n, m_kind == scan_kind::hillis, m_count.get(), stream());
    ++m_launches;
  }
  compaction_output result() override {
    const std::size_t count = m_n ? read_count() : 0;
    check_count(count, name_of(m_kind));
    return {m_out.download(count, stream()), m_a.download(m_n, stream())};
  }

protected:
  void prepare_device(const param_set& p) override {
    m_block = m_kind == scan_kind::thrust ? 0u : static_cast<unsigned>(p.integer("block"));
    if (m_block) check_scan_block(m_block);
    m_a.resize(m_n);
    m_out.resize(m_n);
    m_flags.resize(m_n);
    m_levels.clear();
    m_passes = 0;
    switch (m_kind) {
    case scan_kind::blelloch: {
      // Level l + 1 holds the block totals of level l, until one block covers a level.
      const std::size_t per_block = blelloch_block_elements(m_block);
      for (std::size_t size = m_n; size > per_block;) {
        size = (size + per_block - 1) / per_block;
        m_levels.emplace_back(size);
      }
      break;
    }
    case scan_kind::hillis:
      m_ping.resize(m_n);
      for (std::size_t offset = 1; offset < m_n; offset <<= 1) ++m_passes;
      break;
    case scan_kind::thrust:
      m_ping.resize(m_n);
      size_arena(m_arena, m_arena_memory, [&] {
        if (m_n) thrust_exclusive_scan(m_arena, m_flags.get(), m_ping.get(), m_n, stream());
      });
      break;
    }
  }
  void reset_device() override { m_a.copy_from(m_pristine, stream()); }
  traffic traffic_model() const override {
    const traffic mark = mark_traffic();
    const std::uint64_t n = m_n;
    std::uint64_t read = mark.read + 4 * n /*map*/ + 8 * n /*scatter: A and the prefix*/;
    std::uint64_t written = mark.written + 4 * n /*map*/ + 4 * m_w->kept() /*scatter*/;
    switch (m_kind) {
    case scan_kind::blelloch: {
      std::uint64_t size = n;
      read += 4 * size;
      written += 4 * size;
      for (const auto& level : m_levels) {
        // scanning level l writes its sums (level l + 1); adding them back reads and writes level l
        read += 4 * level.size() + 4 * size + 4 * size / blelloch_block_elements(m_block);
        written += 4 * level.size() + 4 * size;
        size = level.size();
      }
      break;
    }
    case scan_kind::hillis:
      read += 8 * n * m_passes;
      written += 4 * n * m_passes;
      break;
    case scan_kind::thrust: // the least a scan moves: the flags read once, the sums written once
      read += 4 * n;
      written += 4 * n;
      break;
    }
    return {read, written, 0};
  }

private:
  const std::uint32_t* scan() {
    switch (m_kind) {
    case scan_kind::hillis: return hillis();
    case scan_kind::blelloch: return blelloch();
    case scan_kind::thrust:
      thrust_exclusive_scan(m_arena, m_flags.get(), m_ping.get(), m_n, stream());
      ++m_launches;
      return m_ping.get();
    }
    return nullptr;
  }
  const std::uint32_t* hillis() {
    std::uint32_t* in = m_flags.get();
    std::uint32_t* out = m_ping.get();
    for (std::size_t offset = 1; offset < m_n; offset <<= 1) {
      launch_hillis_pass(out, in, m_n, offset, m_block, stream());
      ++m_launches;
      std::swap(in, out);
    }
    return in; // inclusive sums
  }
  const std::uint32_t* blelloch() {
    // Up the levels: scan each block, its total into the next level; the top level is one block.
    std::vector<std::uint32_t*> data{m_flags.get()};
    std::vector<std::size_t> sizes{m_n};
    for (auto& level : m_levels) {
      data.push_back(level.get());
      sizes.push_back(level.size());
    }
    for (std::size_t l = 0; l < data.size(); ++l) {
      launch_blelloch_blocks(data[l], data[l], l + 1 < data.size() ? data[l + 1] : nullptr, sizes[l], m_block, stream());
      ++m_launches;
    }
    // Down: every block adds the exclusive sum of the blocks before it.
    for (std::size_t l = data.size() - 1; l-- > 0;) {
      launch_add_block_sums(data[l], data[l + 1], sizes[l], m_block, stream());
      ++m_launches;
    }
    return m_flags.get(); // exclusive sums, in place over the flags
  }

  scan_kind m_kind;
  unsigned m_block = 0;
  std::size_t m_passes = 0;
  device_buffer<std::uint32_t> m_a, m_out, m_flags, m_ping;
  std::vector<device_buffer<std::uint32_t>> m_levels;
  thrust_arena m_arena;
  device_buffer<char> m_arena_memory;
};

/// Threads per block of the scan kernels: the write-up's block-size study.
param_axis block_axis(const std::string& what) {
  return integer_axis("block", "threads per block of " + what + " (a power of two, 32 … 1024)", "256",
                      {"64", "256", "1024"}, 32, 1024, true);
}

} // namespace

algorithm_entry scan_naive_entry() {
  return {.info = {.api = "cuda",
                   .name = "scan_naive",
                   .summary = "map → Hillis-Steele global scan (one kernel per offset, O(n log n) work) → scatter; out of place",
                   .stable = true,
                   .in_place = false,
                   .input = input_kind::predicate,
                   .axes = {block_axis("the scan passes")}},
          .make = [] { return std::make_unique<scan_compaction>(scan_kind::hillis); }};
}

algorithm_entry scan_efficient_entry() {
  return {.info = {.api = "cuda",
                   .name = "scan_efficient",
                   .summary = "map → Blelloch up/down-sweep scan (shared memory per block, recursive over block totals) → scatter; out of "
                              "place",
                   .stable = true,
                   .in_place = false,
                   .input = input_kind::predicate,
                   .axes = {block_axis("the Blelloch blocks (each scans twice as many elements)")}},
          .make = [] { return std::make_unique<scan_compaction>(scan_kind::blelloch); }};
}

algorithm_entry scan_thrust_entry() {
  return {.info = {.api = "cuda",
                   .name = "scan_thrust",
                   .summary = "map → thrust::exclusive_scan → scatter (the CIS 565 write-up's library scan); out of place",
                   .stable = true,
                   .in_place = false,
                   .input = input_kind::predicate,
                   .axes = {}},
          .make = [] { return std::make_unique<scan_compaction>(scan_kind::thrust); }};
}

} // namespace winnow::cuda
