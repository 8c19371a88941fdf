#include "winnow/shader_era/calibrate.hpp"

#include <algorithm>

#include "winnow/shader_era/frame.hpp"

namespace winnow::shader_era {

double copy_pass_ns(executor& x, const param_set& params, std::uint32_t side, std::size_t passes) {
  const plan p = copy_chain(side, passes);
  x.prepare(p, params, {});
  auto run = [&] {
    for (std::size_t i = 0; i < p.passes.size(); ++i) x.record(i);
  };
  x.begin();
  run();
  x.end();
  const auto t = x.make_timer();
  t->start();
  x.begin();
  t->phase("copy");
  run();
  x.end();
  t->stop();
  return t->read().at(0).ns / static_cast<double>(passes);
}

double round_trip_ns(executor& x, const param_set& params, std::size_t runs) {
  const plan p = copy_chain(1, 2);
  x.prepare(p, params, {});
  const view written{p.passes.front().output};
  const auto run = [&](bool read, timer* t) {
    x.begin();
    if (t) t->phase("trip");
    x.record(0);
    if (read) (void)x.read_midway(written, 1);
    x.record(1);
    x.end();
  };
  run(true, nullptr); // untimed: the first read maps or allocates what later ones reuse
  std::vector<double> gap;
  for (std::size_t i = 0; i < runs; ++i) {
    double ns[2] = {};
    for (const bool read : {false, true}) {
      const auto t = x.make_timer();
      t->start();
      run(read, t.get());
      t->stop();
      ns[read] = t->read().at(0).ns;
    }
    gap.push_back(ns[1] - ns[0]);
  }
  std::nth_element(gap.begin(), gap.begin() + std::ptrdiff_t(gap.size() / 2), gap.end());
  return std::max(0.0, gap[gap.size() / 2]);
}

copy_sweep copy_sweep_for(bool software_device) {
  if (software_device) return {{2048u}, 4};
  return {{2048u, 4096u}, 20};
}

std::vector<calibration> pass_model_calibration(executor& x, const param_set& params, const std::string& path,
                                                const copy_sweep& sweep) {
  std::vector<calibration> out;
  out.push_back({"empty_pass_ns", copy_pass_ns(x, params, 1, 200), "ns",
                 "the frame's copy pass over 1 × 1 word as a " + path + ", ping-pong, mean of 200 after 200 warm-up"});
  out.push_back(
      {"round_trip_ns", round_trip_ns(x, params, 21), "ns",
       "the device's idle time while the host reads one word back between two passes of one run (read_midway), a " +
           path +
           ": the median over 21 runs of their time with the read minus without; what the adaptive "
           "algorithm's choice on the host adds to its sample"});
  for (const std::uint32_t side : sweep.sides) {
    const double ns = copy_pass_ns(x, params, side, sweep.passes);
    const double words = double(side) * double(side);
    const std::string size = side == 2048 ? "4M" : "16M";
    out.push_back({"copy_pass_ns_" + size, ns, "ns",
                   "the frame's copy pass over " + size + " 32-bit words as a " + path + ", ping-pong, mean of " +
                       std::to_string(sweep.passes)});
    out.push_back(
        {"copy_bytes_per_ns_" + size, 8 * words / ns, "GB/s", "(4 B read + 4 B written) per word / pass time"});
  }
  return out;
}

} // namespace winnow::shader_era
