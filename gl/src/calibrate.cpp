// The GL constants the pass model needs (issue: ratio to bytes / copy bandwidth + passes × empty
// pass): the cost of a pass that does nothing (a 1×1 target), and the bandwidth of a copy pass (one
// texelFetch, one write per texel) at 4M and 16M texels. Every pass reads what the one before wrote
// (ping-pong), as an algorithm's passes do: independent passes overlap on the GPU and would
// understate the cost (24 ns instead of microseconds on an H200). Timed with GL_TIMESTAMP queries
// over many passes, after a warm-up.
#include "calibrate.hpp"

#include "winnow/gl/context.hpp"
#include "winnow/gl/pass.hpp"
#include "winnow/gl/timer_query.hpp"

namespace winnow::gl {
namespace {

/// The mean over `passes` ping-pong passes between a and b (after as many warm-up ones).
double per_pass_ns(pass_runner& r, const program& p, int w, int h, int passes) {
  const texture a(texel_format::r32ui, w, h), b(texel_format::r32ui, w, h);
  const framebuffer to_a({&a}), to_b({&b});
  auto chain = [&] {
    for (int i = 0; i < passes; ++i) {
      bind(0, i % 2 ? b : a);
      r.draw(p, i % 2 ? to_a : to_b, w, h, 1);
    }
  };
  chain();
  timer_query q;
  q.start();
  q.phase("passes");
  chain();
  q.stop();
  return q.read().at(0).ns / passes;
}

} // namespace

std::vector<calibration> calibrate() {
  context& ctx = context::get();
  pass_runner r;
  const program copy("fullscreen.vert", "scan_hillis.frag"); // offset ≥ segment: a plain copy
  std::vector<calibration> out;
  set(copy, 0, 1);
  set(copy, 1, 1);
  set(copy, 2, 0);
  out.push_back({"empty_pass_ns", per_pass_ns(r, copy, 1, 1, 200), "ns",
                 "a 1×1 R32UI ping-pong pass (one texelFetch), mean of 200 after 200 warm-up"});
  for (const int side : {2048, 4096}) {
    const double ns = per_pass_ns(r, copy, side, side, 20);
    const double texels = double(side) * double(side);
    const std::string size = side == 2048 ? "4M" : "16M";
    out.push_back({"copy_pass_ns_" + size, ns, "ns", "R32UI ping-pong copy pass over " + size + " texels"});
    out.push_back({"copy_bytes_per_ns_" + size, 8 * texels / ns, "GB/s", "(4 B read + 4 B written) per texel / pass time"});
  }
  ctx.check("winnow::gl::calibrate");
  return out;
}

} // namespace winnow::gl
