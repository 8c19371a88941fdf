// cuda/scan_naive, cuda/scan_efficient and cuda/scan_thrust — map → scan → scatter (the CIS 565
// write-up's GPU compaction) with a global Hillis-Steele scan (one kernel per doubling offset), a
// Blelloch up/down-sweep scan (per block in shared memory, recursively over the block totals), or
// thrust::exclusive_scan (global_scan.hpp). The scan is a phase of its own; `winnow calibrate --api
// cuda` also times each scan alone (cis565_scans.cpp). Any n.
#include <optional>

#include "algorithms.hpp"
#include "cuda_algorithm.hpp"
#include "dispatch/scan.hpp"
#include "global_scan.hpp"

namespace winnow::cuda {
namespace {

const char* name_of(scan_kind k) {
  return k == scan_kind::hillis     ? "winnow::cuda::scan_naive"
         : k == scan_kind::blelloch ? "winnow::cuda::scan_efficient"
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
    const std::uint32_t* prefix = m_scan->run(m_flags.get(), stream());
    m_launches += m_scan->launches();
    t.phase("scatter");
    launch_scatter(m_out.get(), m_a.get(), prefix, m_n, m_scan->inclusive(), m_count.get(), stream());
    ++m_launches;
  }

protected:
  device_result output() override {
    const std::size_t count = m_n ? read_count() : 0;
    check_count(count, name_of(m_kind));
    return {.who = name_of(m_kind), .values = m_out.get(), .count = count, .input_after = m_a.get()};
  }

  void prepare_device(const param_set& p) override {
    m_a.resize(m_n);
    m_out.resize(m_n);
    m_flags.resize(m_n);
    m_scan.reset();
    m_scan.emplace(m_kind, m_n, m_kind == scan_kind::thrust ? 0u : static_cast<unsigned>(p.integer("block")), stream());
  }
  void reset_device() override { m_a.copy_from(m_pristine, stream()); }
  traffic traffic_model() const override {
    const traffic mark = mark_traffic();
    const traffic scan = m_scan->bytes();
    const std::uint64_t n = m_n;
    return {mark.read + 4 * n /*map*/ + scan.read + 8 * n /*scatter: A and the prefix*/,
            mark.written + 4 * n /*map*/ + scan.written + 4 * m_w->kept() /*scatter*/, 0};
  }

private:
  scan_kind m_kind;
  device_buffer<std::uint32_t> m_a, m_out, m_flags;
  std::optional<global_scan> m_scan;
};

/// Threads per block of the scan kernels (the write-up ran 128; its block-size study times the scans
/// alone, cis565_scans.cpp).
param_axis block_axis(const std::string& what) {
  return integer_axis("block", "threads per block of " + what + " (a power of two, 32 … 1024)", "256",
                      {"64", "256", "1024"}, 32, 1024, true);
}

} // namespace

algorithm_entry scan_naive_entry() {
  return {
      .info = {.api = "cuda",
               .name = "scan_naive",
               .summary =
                   "map → Hillis-Steele global scan (one kernel per offset, O(n log n) work) → scatter; out of place",
               .stable = true,
               .in_place = false,
               .input = input_kind::predicate,
               .axes = {block_axis("the scan passes")},
               .relative_cost = 5},
      .make = [] { return std::make_unique<scan_compaction>(scan_kind::hillis); }};
}

algorithm_entry scan_efficient_entry() {
  return {.info = {.api = "cuda",
                   .name = "scan_efficient",
                   .summary = "map → Blelloch up/down-sweep scan (shared memory per block, recursive over block "
                              "totals) → scatter; out of "
                              "place",
                   .stable = true,
                   .in_place = false,
                   .input = input_kind::predicate,
                   .axes = {block_axis("the Blelloch blocks (each scans twice as many elements)")}},
          .make = [] { return std::make_unique<scan_compaction>(scan_kind::blelloch); }};
}

algorithm_entry scan_thrust_entry() {
  return {
      .info = {.api = "cuda",
               .name = "scan_thrust",
               .summary = "map → thrust::exclusive_scan → scatter (the CIS 565 write-up's library scan); out of place",
               .stable = true,
               .in_place = false,
               .input = input_kind::predicate,
               .axes = {}},
      .make = [] { return std::make_unique<scan_compaction>(scan_kind::thrust); }};
}

} // namespace winnow::cuda
