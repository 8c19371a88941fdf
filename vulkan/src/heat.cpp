// The backend's heat (run_options::heat). A record of short dispatches leaves the GPU idle most of the
// time: vk/lookback at 1M-16M elements runs 15-20 µs of each ~70 µs (submit, fence, timestamps), and
// at that duty NVIDIA's driver held an H100's clock at 1140-1410 MHz of 1980, a different clock each
// run, however long the record's runs went on. Here the device copies between two buffers of its own,
// a submission at a time of about a millisecond of passes, so the host's gaps are a few percent.
#include "heat.hpp"

#include <chrono>
#include <cstdint>

#include "calibrate.hpp"
#include "winnow/vulkan/buffer.hpp"
#include "winnow/vulkan/device.hpp"
#include "winnow/vulkan/sequence.hpp"

namespace winnow::vk {
namespace {

/// 16M words a buffer (64 MiB: beyond the L2 of an H100 or H200, so the copies reach DRAM as the
/// records do), copied 16 bytes an invocation (copy.comp, WIDTH 4).
constexpr std::uint64_t heat_words = std::uint64_t{16} << 20;
constexpr std::uint32_t heat_width = 4, heat_local = 256;
/// Passes a submission: about 45 µs each on an H100, so a submission keeps it busy about 1 ms.
constexpr int passes_per_submission = 24;

struct heater {
  buffer ping{"heat ping", 4 * heat_words}, pong{"heat pong", 4 * heat_words};
  sequence s{"winnow::vk::heat"};
};

} // namespace

double heat(double ns) {
  // The device first: the heater, made after it, is destroyed before it.
  (void)device::get();
  static heater h;
  const auto start = std::chrono::steady_clock::now();
  double busy_ns = 0;
  do {
    h.s.begin();
    h.s.mark("heat");
    for (int i = 0; i < passes_per_submission; ++i)
      record_copy_pass(h.s, i % 2 ? h.pong : h.ping, i % 2 ? h.ping : h.pong, heat_words, heat_width, heat_local);
    h.s.submit_and_wait();
    busy_ns += h.s.read_marks().at(0).ns; // the device's own time, by its timestamps
  } while (std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count() < ns);
  return busy_ns;
}

} // namespace winnow::vk
