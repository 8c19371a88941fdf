// The Vulkan constants of the pass model, measured as gl/'s are: the cost of a dispatch that does
// nothing (one invocation) and the bandwidth of a copy pass (one load, one store per element) at 4M
// and 16M elements. Every pass reads what the one before wrote (ping-pong, with the barrier the
// algorithms' passes have), timed by timestamps around many passes after a warm-up recording.
#include "calibrate.hpp"

#include "passes.hpp"
#include "winnow/vulkan/buffer.hpp"

namespace winnow::vk {
namespace {

double per_pass_ns(std::uint64_t n, int passes) {
  const buffer a("calibrate ping", 4 * n), b("calibrate pong", 4 * n);
  const pipeline& copy = shader("scan_hillis", default_local_size()); // offset ≥ segment: a plain copy
  sequence s("winnow::vk::calibrate");
  pass_runner r;
  r.attach(s);
  auto chain = [&] {
    for (int i = 0; i < passes; ++i) {
      pass_args x;
      x.a = (i % 2 ? b : a).address();
      x.dst = (i % 2 ? a : b).address();
      x.k0 = 1;
      x.k1 = 1;
      x.k2 = 0;
      r.run(copy, x, n, 1);
    }
  };
  s.begin();
  chain();
  s.submit_and_wait();
  s.begin();
  s.mark("passes");
  chain();
  s.submit_and_wait();
  return s.read_marks().at(0).ns / passes;
}

} // namespace

std::vector<calibration> calibrate() {
  std::vector<calibration> out;
  out.push_back({"empty_pass_ns", per_pass_ns(1, 200), "ns", "a 1-invocation ping-pong dispatch + barrier, mean of 200 after 200 warm-up"});
  for (const std::uint64_t n : {std::uint64_t{4} << 20, std::uint64_t{16} << 20}) {
    const double ns = per_pass_ns(n, 20);
    const std::string size = n == (std::uint64_t{4} << 20) ? "4M" : "16M";
    out.push_back({"copy_pass_ns_" + size, ns, "ns", "ping-pong copy dispatch over " + size + " 32-bit elements"});
    out.push_back({"copy_bytes_per_ns_" + size, 8 * static_cast<double>(n) / ns, "GB/s", "(4 B read + 4 B written) per element / pass time"});
  }
  return out;
}

} // namespace winnow::vk
