#include "winnow/shader_era/calibrate.hpp"

#include "winnow/shader_era/frame.hpp"

namespace winnow::shader_era {

double copy_pass_ns(executor& x, const param_set& params, std::uint32_t side, std::size_t passes) {
  const plan p = copy_chain(side, passes);
  x.prepare(p, params, {}, {});
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

std::vector<calibration> pass_model_calibration(executor& x, const param_set& params, const std::string& path) {
  std::vector<calibration> out;
  out.push_back({"empty_pass_ns", copy_pass_ns(x, params, 1, 200), "ns",
                 "the frame's copy pass over 1 × 1 word as a " + path + ", ping-pong, mean of 200 after 200 warm-up"});
  for (const std::uint32_t side : {2048u, 4096u}) {
    const double ns = copy_pass_ns(x, params, side, 20);
    const double words = double(side) * double(side);
    const std::string size = side == 2048 ? "4M" : "16M";
    out.push_back({"copy_pass_ns_" + size, ns, "ns", "the frame's copy pass over " + size + " 32-bit words as a " + path + ", ping-pong"});
    out.push_back({"copy_bytes_per_ns_" + size, 8 * words / ns, "GB/s", "(4 B read + 4 B written) per word / pass time"});
  }
  return out;
}

} // namespace winnow::shader_era
