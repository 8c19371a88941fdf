// The GL constants the pass model needs (issue: ratio to bytes / copy bandwidth + passes × empty
// pass): the cost of a pass that does nothing (a 1×1 target), and the bandwidth of a copy pass (one
// texelFetch, one write per texel) at 4M and 16M texels. Timed with GL_TIMESTAMP queries over many
// passes, after a warm-up.
#include "calibrate.hpp"

#include "winnow/gl/context.hpp"
#include "winnow/gl/pass.hpp"
#include "winnow/gl/timer_query.hpp"

namespace winnow::gl {
namespace {

/// Median-free but steady: the mean over `passes` back-to-back passes (after as many warm-up ones).
double per_pass_ns(pass_runner& r, const program& p, const framebuffer& f, int w, int h, int passes) {
  for (int i = 0; i < passes; ++i) r.draw(p, f, w, h, 1);
  timer_query q;
  q.start();
  q.phase("passes");
  for (int i = 0; i < passes; ++i) r.draw(p, f, w, h, 1);
  q.stop();
  return q.read().at(0).ns / passes;
}

} // namespace

std::vector<calibration> calibrate() {
  context& ctx = context::get();
  pass_runner r;
  const program copy("fullscreen.vert", "scan_hillis.frag"); // offset ≥ segment: a plain copy
  std::vector<calibration> out;
  const texture one_a(texel_format::r32ui, 1, 1), one_b(texel_format::r32ui, 1, 1);
  const framebuffer one_fbo({&one_b});
  bind(0, one_a);
  set(copy, 0, 1);
  set(copy, 1, 1);
  set(copy, 2, 0);
  out.push_back({"empty_pass_ns", per_pass_ns(r, copy, one_fbo, 1, 1, 200), "ns",
                 "a 1×1 R32UI pass (one texelFetch), mean of 200 after 200 warm-up"});
  for (const int side : {2048, 4096}) {
    const texture src(texel_format::r32ui, side, side), dst(texel_format::r32ui, side, side);
    const framebuffer f({&dst});
    bind(0, src);
    const double ns = per_pass_ns(r, copy, f, side, side, 20);
    const double texels = double(side) * double(side);
    const std::string size = side == 2048 ? "4M" : "16M";
    out.push_back({"copy_pass_ns_" + size, ns, "ns", "R32UI copy pass over " + size + " texels"});
    out.push_back({"copy_bytes_per_ns_" + size, 8 * texels / ns, "GB/s", "(4 B read + 4 B written) per texel / pass time"});
  }
  ctx.check("winnow::gl::calibrate");
  return out;
}

} // namespace winnow::gl
