// The GL constants of the pass model (measured / (bytes / copy bandwidth + passes × empty pass)): the
// cost of a pass that does nothing (a 1×1 target), and the bandwidth of a copy pass (one texelFetch,
// one write per texel) at 4M and 16M texels — the algorithms' own gather program (scan_hillis with
// nothing to add), its arguments in a uniform buffer as theirs are. Every pass reads what the one
// before wrote (ping-pong), as an algorithm's passes do: independent passes overlap on the GPU and
// would understate the cost (24 ns instead of microseconds on an H200). Timed with GL_TIMESTAMP
// queries over many passes, after as many warm-up passes.
#include "calibrate.hpp"

#include "winnow/gl/context.hpp"
#include "winnow/gl/pass.hpp"
#include "winnow/gl/timer_query.hpp"
#include "winnow/shader_era/args.hpp"
#include "winnow/shader_era/layout.hpp"

namespace winnow::gl {
namespace {

/// The mean over `passes` ping-pong copy passes of side × side texels (after as many warm-up ones).
double per_pass_ns(pass_runner& r, const program& copy, int side, int passes) {
  const texture a(texel_format::r32ui, side, side), b(texel_format::r32ui, side, side);
  const framebuffer to_a({&a}), to_b({&b});
  shader_era::io_args io;
  io.out_log2w = io.in_log2w[0] = shader_era::log2_exact(static_cast<std::uint64_t>(side));
  io.out_height = static_cast<std::uint32_t>(side);
  struct block {
    shader_era::io_args io;
    shader_era::scan_hillis_args copy; // offset 1 ≥ segment 1: nothing is added
    std::uint32_t pad[3];
  } args{io, {1, 1, 0}, {}};
  const gpu_buffer ubo(sizeof args, &args);
  glBindBufferBase(GL_UNIFORM_BUFFER, 0, ubo.id());
  auto chain = [&] {
    for (int i = 0; i < passes; ++i) {
      bind(0, i % 2 ? b : a);
      r.draw(copy, i % 2 ? to_a : to_b, side, side);
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
  const program copy({"graphics.glsl", "fullscreen.vert"}, {"graphics.glsl", "scan_hillis.glsl", "gather.frag"});
  std::vector<calibration> out;
  out.push_back({"empty_pass_ns", per_pass_ns(r, copy, 1, 200), "ns",
                 "a 1×1 R32UI ping-pong pass (one texelFetch), mean of 200 after 200 warm-up"});
  for (const int side : {2048, 4096}) {
    const double ns = per_pass_ns(r, copy, side, 20);
    const double texels = double(side) * double(side);
    const std::string size = side == 2048 ? "4M" : "16M";
    out.push_back({"copy_pass_ns_" + size, ns, "ns", "R32UI ping-pong copy pass over " + size + " texels"});
    out.push_back({"copy_bytes_per_ns_" + size, 8 * texels / ns, "GB/s", "(4 B read + 4 B written) per texel / pass time"});
  }
  ctx.check("winnow::gl::calibrate");
  return out;
}

} // namespace winnow::gl
