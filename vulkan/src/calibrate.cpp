// The Vulkan constants of the pass model, measured as gl/'s and vkfrag's are, by the executor the
// algorithms run on (shader_era/calibrate.hpp): the cost of a dispatch that does (almost) nothing —
// the frame's own copy pass over one element — and the bandwidth of that copy pass at 4M and 16M
// elements, with one and with four output words per invocation.
// Then the copy with 4-, 8- and 16-byte accesses per invocation and a few workgroup sizes: the best is
// the device's roofline, which this API reaches only with wide accesses. Every pass reads what the one
// before wrote (ping-pong, with the barrier the algorithms' passes have), timed by timestamps around
// many passes after a warm-up recording.
#include "calibrate.hpp"

#include <algorithm>
#include <functional>

#include "winnow/shader_era/calibrate.hpp"
#include "winnow/vulkan/buffer.hpp"
#include "winnow/vulkan/device.hpp"
#include "winnow/vulkan/executor.hpp"
#include "winnow/vulkan/fragment_executor.hpp"

namespace winnow::vk {
namespace {

/// Mean time of `passes` ping-pong passes recorded by `pass(from, to)`, after one warm-up recording.
double per_pass_ns(std::uint64_t bytes, int passes,
                   const std::function<void(sequence&, const buffer&, const buffer&)>& pass) {
  const buffer a("calibrate ping", bytes), b("calibrate pong", bytes);
  sequence s("winnow::vk::calibrate");
  auto chain = [&] {
    for (int i = 0; i < passes; ++i) pass(s, i % 2 ? b : a, i % 2 ? a : b);
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

/// The executor's own parameters, with `items` output words per invocation of a gather pass.
param_set executor_params(std::uint32_t items) {
  algorithm_info info;
  info.api = "vk";
  info.axes = executor_axes();
  return resolve_params(info, {{"items", std::to_string(items)}});
}

/// copy.comp: `width` words per invocation, `local` invocations per workgroup, n 32-bit words.
double wide_copy_ns(std::uint64_t n, std::uint32_t width, std::uint32_t local, int passes) {
  return per_pass_ns(4 * n, passes, [&](sequence& s, const buffer& from, const buffer& to) {
    record_copy_pass(s, from, to, n, width, local);
  });
}

std::string size_name(std::uint64_t n) {
  return n == (std::uint64_t{4} << 20) ? "4M" : n == (std::uint64_t{16} << 20) ? "16M" : "256M";
}

} // namespace

void record_copy_pass(sequence& s, const buffer& from, const buffer& to, std::uint64_t words, std::uint32_t width,
                      std::uint32_t local) {
  const pipeline& p = pipeline::get({"copy", {local, width}});
  struct push {
    VkDeviceAddress src, dst;
    std::uint32_t count;
  };
  const std::uint64_t elements = words / width;
  s.dispatch(p, push{from.address(), to.address(), static_cast<std::uint32_t>(elements)},
             (elements + local - 1) / local);
}

std::vector<calibration> calibrate() {
  const device_properties& props = device::get().properties();
  std::vector<calibration> out;
  // The frame's copy pass as the algorithms' passes run it (4-byte accesses), then with 4 output words
  // per invocation (items=4: 4-byte loads, one 16-byte store), through the compute executor.
  const bool software = props.type == VK_PHYSICAL_DEVICE_TYPE_CPU;
  const shader_era::copy_sweep sweep = shader_era::copy_sweep_for(software);
  executor x;
  out = shader_era::pass_model_calibration(x, executor_params(1),
                                           "Vulkan compute dispatch (4-byte accesses, a barrier after each)", sweep);
  for (const std::uint32_t side : sweep.sides) {
    const std::uint64_t n = std::uint64_t{side} * side;
    const double ns4 = shader_era::copy_pass_ns(x, executor_params(4), side, sweep.passes);
    out.push_back({"copy_pass_ns_" + size_name(n) + "_items4", ns4, "ns",
                   "the same with 4 output words per invocation (items=4: 4-byte loads, one 16-byte store)"});
    out.push_back({"copy_bytes_per_ns_" + size_name(n) + "_items4", 8 * static_cast<double>(n) / ns4, "GB/s",
                   "(4 B read + 4 B written) per element / pass time, items=4"});
  }
  // The copy by access width and workgroup size: the API's roofline is the best of them at the largest
  // size, 2^28 elements (2 GiB in two buffers) on a GPU — a software device would page for minutes, so
  // there 16M. Not at the smaller sizes: 4M in two buffers (32 MiB) fits an H100's L2 and copies 17 %
  // faster than DRAM allows (3539 against 3032 GB/s; docs/algorithms.md § Traffic models,
  // "The copy roofline"). A software device (lavapipe) sweeps 4M only, 4 passes a point: there the
  // sweep gives the pass models a shape, not a roofline anyone measures against, and at 16M it took
  // over three minutes of a 2-core machine (most of a `reproduce all --quick` there).
  double best = 0;
  std::string best_how;
  std::vector<std::uint32_t> locals{64, 256, std::min({1024u, props.max_group_size_x, props.max_invocations})};
  locals.erase(std::unique(locals.begin(), locals.end()), locals.end());
  std::vector<std::uint64_t> sizes{std::uint64_t{4} << 20};
  if (!software) sizes.push_back(std::uint64_t{16} << 20);
  if (!software && (!props.max_allocation || props.max_allocation >= (1ull << 30)))
    sizes.push_back(std::uint64_t{256} << 20);
  for (const std::uint64_t n : sizes)
    for (const std::uint32_t width : {1u, 2u, 4u})
      for (const std::uint32_t local : locals) {
        const double ns = wide_copy_ns(n, width, local, software || n > (std::uint64_t{16} << 20) ? 4 : 20);
        const double bw = 8 * static_cast<double>(n) / ns;
        const std::string how = std::to_string(4 * width) + "-byte accesses, workgroups of " + std::to_string(local) +
                                ", " + size_name(n) + " 32-bit elements";
        out.push_back(
            {"copy_bytes_per_ns_" + size_name(n) + "_b" + std::to_string(4 * width) + "_l" + std::to_string(local), bw,
             "GB/s", "ping-pong copy dispatch, " + how});
        if (n == sizes.back() && bw > best) {
          best = bw;
          best_how = how;
        }
      }
  out.push_back({"roofline_bytes_per_ns", best, "GB/s", "the best copy at the largest size: " + best_how});
  return out;
}

std::vector<calibration> fragment_calibrate() {
  fragment_executor x;
  const bool software = device::get().properties().type == VK_PHYSICAL_DEVICE_TYPE_CPU;
  return shader_era::pass_model_calibration(x, param_set{},
                                            "Vulkan fragment pass (a full-screen triangle by dynamic rendering)",
                                            shader_era::copy_sweep_for(software));
}

} // namespace winnow::vk
