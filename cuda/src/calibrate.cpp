// The CUDA device measured as the other APIs' calibrate steps measure theirs: what a kernel that does
// nothing costs, and the copy bandwidth — cudaMemcpyAsync and the pass-through kernel with 4-, 8- and
// 16-byte accesses, at 16M and 256M 32-bit elements. The best copy at 256M is the roofline the
// compute-era algorithms are judged against. Billeter et al. (Tables 1-2) measured the pass-through
// by access width and found its bandwidth falling to a quarter in a narrow band around 24M elements
// on the GTX 280: the 32-bit pass-through at 24M and 100k elements either side tells whether today's
// device has such a band. Every measurement is a chain of copies, each reading what the one before
// wrote (ping-pong), timed by CUDA events around the chain after one untimed chain. Then the
// primitives Billeter et al. build from their compaction (primitives.cpp: Table 4's prefix sum and
// Table 5's radix sort), the floor under Redzone's fill (hole_write_floor), and the CIS 565
// write-up's scans each alone (cis565_scans.cpp).
#include "calibrate.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <utility>
#include <string>

#include <tbb/parallel_for.h>

#include "buffer.hpp"
#include "check.hpp"
#include "cis565_scans.hpp"
#include "context.hpp"
#include "dispatch/copy.hpp"
#include "event_timer.hpp"
#include "primitives.hpp"
#include "winnow/error.hpp"

namespace winnow::cuda {
namespace {

/// Mean time of one of `passes` calls of `pass(from, to)` on the context's stream, ping-pong over
/// two buffers of `bytes`.
double per_pass_ns(std::size_t bytes, int passes, const std::function<void(void*, const void*)>& pass) {
  const cudaStream_t s = context::get().stream();
  device_buffer<std::uint8_t> a(bytes), b(bytes);
  WINNOW_CUDA_CHECK(cudaMemsetAsync(a.get(), 1, bytes, s));
  WINNOW_CUDA_CHECK(cudaMemsetAsync(b.get(), 2, bytes, s));
  auto chain = [&] {
    for (int i = 0; i < passes; ++i) pass(i % 2 ? a.get() : b.get(), i % 2 ? b.get() : a.get());
  };
  chain();
  return time_ns(s, chain) / passes;
}

std::string label(std::size_t n) {
  const std::size_t m = std::size_t{1} << 20;
  return n % m == 0 ? std::to_string(n / m) + "M" : std::to_string(n);
}

/// The floor under Redzone's fill (docs/algorithms.md § Redzone, "The fill's floor"): one 4-byte
/// write into each hole of a removal list, in address order (as order=bitmap writes them), each
/// hole's index and its source read contiguously. Holes a few sectors apart each cost a partial
/// 32-byte sector write, which no ordering removes.
void hole_write_floor(std::vector<calibration>& out) {
  const cudaStream_t s = context::get().stream();
  const std::size_t n = std::size_t{256} << 20;
  constexpr int passes = 10;
  for (const auto& [percent, fraction] : {std::pair{2, 0.02}, std::pair{10, 0.10}}) {
    const std::vector<std::uint32_t> holes = sorted_holes(n, fraction);
    device_buffer<std::uint32_t> a(n), at(holes.size()), values(holes.size());
    at.upload(holes.data(), holes.size(), s);
    WINNOW_CUDA_CHECK(cudaMemsetAsync(a.get(), 0, a.bytes(), s));
    WINNOW_CUDA_CHECK(cudaMemsetAsync(values.get(), 7, values.bytes(), s));
    const auto chain = [&] {
      for (int i = 0; i < passes; ++i) launch_scatter(a.get(), at.get(), values.get(), holes.size(), s);
    };
    chain();
    const std::string how = "the floor under Redzone's fill: one 4-byte write into each of the " +
                            std::to_string(holes.size()) + " holes that k = " + std::to_string(percent) + " % of " +
                            label(n) + " elements leave, in address order, each hole's index and source read " +
                            "contiguously; mean of " + std::to_string(passes) + " back to back";
    out.push_back(
        {"hole_writes_us_" + label(n) + "_k" + std::to_string(percent), time_ns(s, chain) / passes / 1e3, "µs", how});
  }
}

} // namespace

std::vector<std::uint32_t> sorted_holes(std::size_t n, double fraction) {
  if (!(fraction > 0 && fraction < 1) || n > (std::uint64_t{1} << 32))
    throw error("winnow::cuda::sorted_holes: k must be a fraction in (0, 1) and n at most 2^32, not " +
                std::to_string(fraction) + " and " + std::to_string(n));
  const auto z = static_cast<std::size_t>(static_cast<double>(n) * (1 - fraction));
  // In chunks of the index range, each drawn on its own generator (seeded by the chunk: the same list
  // on any number of cores): a Bernoulli process started afresh at a chunk's start is still one, and
  // 2^28 · 10 % draws one after another took seconds of the calibrate step.
  constexpr std::size_t chunk = std::size_t{1} << 22;
  std::vector<std::vector<std::uint32_t>> parts((z + chunk - 1) / chunk);
  const double log_q = std::log1p(-fraction);
  tbb::parallel_for(std::size_t{0}, parts.size(), [&](std::size_t c) {
    std::mt19937_64 rng(20241 + c);
    // [0, 1): some libraries' uniform_real_distribution can return its upper bound (LWG 2524), whose
    // gap would be infinite.
    std::uniform_real_distribution<double> draw(0.0, 1.0);
    const auto gap = [&] { return std::floor(std::log1p(-std::min(draw(rng), std::nextafter(1.0, 0.0))) / log_q); };
    const auto end = static_cast<double>(std::min(z, (c + 1) * chunk));
    std::vector<std::uint32_t>& part = parts[c];
    part.reserve(static_cast<std::size_t>(1.1 * fraction * chunk));
    for (double i = static_cast<double>(c * chunk) + gap(); i < end; i += 1 + gap())
      part.push_back(static_cast<std::uint32_t>(i));
  });
  std::vector<std::uint32_t> out;
  std::size_t total = 0;
  for (const auto& part : parts) total += part.size();
  out.reserve(total);
  for (const auto& part : parts) out.insert(out.end(), part.begin(), part.end());
  return out;
}

std::vector<calibration> calibrate() {
  const cudaStream_t s = context::get().stream();
  std::vector<calibration> out;
  out.push_back(
      {"empty_pass_ns", per_pass_ns(16, 200, [&](void*, const void*) { launch_empty(s); }), "ns",
       "a kernel of one thread that does nothing, 200 launched back to back on one stream, mean after 200 untimed"});
  double best = 0;
  std::string best_how;
  for (const std::size_t n : {std::size_t{16} << 20, std::size_t{256} << 20}) {
    const std::size_t bytes = 4 * n;
    const int passes = n > (std::size_t{16} << 20) ? 10 : 40;
    auto add = [&](const std::string& name, const std::string& how, double ns) {
      const double bw = 2 * static_cast<double>(bytes) / ns;
      out.push_back({name, bw, "GB/s",
                     how + ", " + label(n) + " 32-bit elements; (read + written bytes) / time, mean of " +
                         std::to_string(passes) + " ping-pong copies"});
      if (n == (std::size_t{256} << 20) && bw > best) {
        best = bw;
        best_how = how;
      }
    };
    add("memcpy_bytes_per_ns_" + label(n), "cudaMemcpyAsync device to device",
        per_pass_ns(bytes, passes, [&](void* to, const void* from) {
          WINNOW_CUDA_CHECK(cudaMemcpyAsync(to, from, bytes, cudaMemcpyDeviceToDevice, s));
        }));
    for (const unsigned width : {4u, 8u, 16u})
      add("copy_bytes_per_ns_" + label(n) + "_b" + std::to_string(width),
          "pass-through kernel, " + std::to_string(width) + "-byte accesses, grid-stride",
          per_pass_ns(bytes, passes, [&](void* to, const void* from) { launch_copy(to, from, bytes, width, s); }));
  }
  out.push_back({"roofline_bytes_per_ns", best, "GB/s", "the best copy at 256M: " + best_how});
  // Table 2's band: 24M elements and 100 000 either side, 4-byte accesses as the paper's Table 2.
  const std::size_t m24 = std::size_t{24} << 20;
  for (const auto& [name, n] : {std::pair{std::string("24M-100k"), m24 - 100000}, std::pair{std::string("24M"), m24},
                                std::pair{std::string("24M+100k"), m24 + 100000}}) {
    const std::size_t bytes = 4 * n;
    const double ns = per_pass_ns(bytes, 20, [&](void* to, const void* from) { launch_copy(to, from, bytes, 4, s); });
    out.push_back({"copy_bytes_per_ns_" + name + "_b4", 2 * static_cast<double>(bytes) / ns, "GB/s",
                   "pass-through kernel, 4-byte accesses, " + std::to_string(n) +
                       " 32-bit elements (Billeter et al.'s Table 2 band); mean of 20 ping-pong copies"});
  }
  hole_write_floor(out);
  for (auto& c : primitives()) out.push_back(std::move(c));
  for (auto& c : cis565_scans()) out.push_back(std::move(c));
  return out;
}

} // namespace winnow::cuda
