// The CIS 565 write-up's scans timed as scans, as its test program times them: one exclusive scan
// of n values in [0, 50) at a time, the CPU's by std::chrono and the GPU's by CUDA events with no
// host↔device copy inside. n runs over the write-up's powers of two and 3 less (256 … 64M); every
// GPU scan at 128 threads a block (its blockSize), and at 32 … 1024 at 1M, 16M and 64M (the
// block-size study). Each scan first runs once on fresh values and is compared with the CPU's sums
// element by element (a mismatch throws winnow::error); then the median of 10 calls, each on fresh
// values copied in untimed.
#include "cis565_scans.hpp"

#include <algorithm>
#include <chrono>
#include <numeric>
#include <string>

#include "buffer.hpp"
#include "check.hpp"
#include "context.hpp"
#include "event_timer.hpp"
#include "global_scan.hpp"
#include "primitives.hpp"
#include "winnow/error.hpp"

namespace winnow::cuda {
namespace {

constexpr int runs = 10;
constexpr unsigned write_up_block = 128;

/// The write-up's test data: n pseudo-random values in [0, 50).
std::vector<std::uint32_t> values_below_50(std::size_t n) { return splitmix64_values(n, 565, 50); }

const char* name_of(scan_kind k) {
  return k == scan_kind::hillis ? "naive" : k == scan_kind::blelloch ? "efficient" : "thrust";
}

const char* how_of(scan_kind k) {
  return k == scan_kind::hillis ? "naive scan (Hillis-Steele, one kernel per doubling offset; inclusive sums)"
         : k == scan_kind::blelloch
             ? "work-efficient scan (Blelloch up/down sweep per block, recursive over block totals)"
             : "thrust::exclusive_scan";
}

/// One n: the CPU's scan and each GPU scan at the given block sizes.
void scans_at(std::size_t n, const std::vector<unsigned>& blocks, std::vector<calibration>& out) {
  const cudaStream_t s = context::get().stream();
  const std::vector<std::uint32_t> values = values_below_50(n);
  const std::string size = std::to_string(n);
  const std::string tail = ", " + size + " values in [0, 50); median of " + std::to_string(runs) + " calls";

  // The CPU's exclusive scan: the write-up's reference loop, and the sums every GPU scan must give.
  std::vector<std::uint32_t> want(n);
  std::vector<double> cpu_ns;
  for (int i = 0; i <= runs; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    std::exclusive_scan(values.begin(), values.end(), want.begin(), std::uint32_t{0});
    const auto t1 = std::chrono::steady_clock::now();
    if (i) cpu_ns.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count());
  }
  std::nth_element(cpu_ns.begin(), cpu_ns.begin() + runs / 2, cpu_ns.end());
  std::vector<std::uint32_t> inclusive(n); // what Hillis-Steele gives
  std::inclusive_scan(values.begin(), values.end(), inclusive.begin());
  out.push_back({"cis565_scan_cpu_n" + size, cpu_ns[runs / 2] / 1000.0, "µs",
                 "CPU exclusive scan (std::exclusive_scan, one thread), timed by std::chrono" + tail});

  device_buffer<std::uint32_t> pristine(n), data(n);
  pristine.upload(values.data(), n, s);
  const auto restore = [&] { data.copy_from(pristine, s); };
  for (const scan_kind kind : {scan_kind::hillis, scan_kind::blelloch, scan_kind::thrust}) {
    for (const unsigned block : blocks) {
      if (kind == scan_kind::thrust && block != write_up_block) continue;
      global_scan scan(kind, n, block, s);
      const std::string who =
          std::string(name_of(kind)) + (kind == scan_kind::thrust ? "" : " at block " + std::to_string(block));
      restore();
      const std::vector<std::uint32_t> got = download(scan.run(data.get(), s), n, s);
      const std::vector<std::uint32_t>& expect = scan.inclusive() ? inclusive : want;
      if (const std::size_t i = first_difference(got, expect); i < n)
        throw error("winnow::cuda: the CIS 565 " + who + " scan of " + size + " values is wrong at element " +
                    std::to_string(i) + ": " + std::to_string(got[i]) + " (the CPU's " +
                    (scan.inclusive() ? "inclusive" : "exclusive") + " sum: " + std::to_string(expect[i]) + ")");
      const double ns = median_time_ns(s, runs, restore, [&] { (void)scan.run(data.get(), s); });
      out.push_back({std::string("cis565_scan_") + name_of(kind) + "_n" + size +
                         (kind == scan_kind::thrust ? "" : "_b" + std::to_string(block)),
                     ns / 1000.0, "µs",
                     std::string(how_of(kind)) +
                         (kind == scan_kind::thrust ? "" : ", " + std::to_string(block) + " threads a block") +
                         ", checked against the CPU's sums, timed by CUDA events" + tail});
    }
  }
}

} // namespace

std::vector<calibration> cis565_scans() {
  std::vector<calibration> out;
  for (const unsigned log2 : {8u, 12u, 16u, 20u, 24u, 26u}) {
    const std::size_t pow2 = std::size_t{1} << log2;
    const bool study = log2 >= 20; // the block-size study at 1M, 16M and 64M
    const std::vector<unsigned> every{32, 64, 128, 256, 512, 1024};
    scans_at(pow2, study ? every : std::vector<unsigned>{write_up_block}, out);
    scans_at(pow2 - 3, {write_up_block}, out);
  }
  return out;
}

} // namespace winnow::cuda
