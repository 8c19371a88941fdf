#include "winnow/vulkan/backend.hpp"

#include "algorithms.hpp"
#include "calibrate.hpp"
#include "heat.hpp"
#include "winnow/vulkan/device.hpp"
#include "winnow/vulkan/executor.hpp"
#include "winnow/vulkan/fragment_executor.hpp"

namespace winnow::vk {

namespace {

std::optional<device_identity> identity_of(const device_properties& p) {
  if (p.identity.empty()) return std::nullopt;
  return p.identity;
}

} // namespace

void register_backend(registry& r) {
  backend b;
  b.api = "vk";
  b.summary =
      "Vulkan 1.2+ compute: the shader-era algorithms pass for pass, and a subgroup-ballot compaction (headless)";
  b.unavailable_reason = [] { return vk::unavailable_reason(); };
  b.device = [] {
    const device_properties& p = device::get().properties();
    return device_info{p.name,
                       p.driver + ", subgroup " + std::to_string(p.subgroup_size) +
                           (device::get().validation() ? ", validation on" : ""),
                       identity_of(p), heat};
  };
  b.calibrate = [] { return vk::calibrate(); };
  b.algorithms = shader_era::entries(
      "vk", {shader_era::concat_method::copy, shader_era::concat_method::search},
      [] { return std::make_unique<executor>(); }, executor_axes());
  b.algorithms.push_back(ballot_entry());
  b.algorithms.push_back(lookback_entry());
  r.add(std::move(b));

  // The same passes through the graphics pipeline, as GL runs them: an api of its own, so lists,
  // suites, records and the cross-API report line up gl, vkfrag and vk.
  backend f;
  f.api = "vkfrag";
  f.summary = "Vulkan 1.3 graphics pipeline: the shader-era algorithms as fragment passes, as on GL (headless)";
  f.unavailable_reason = [] { return fragment_unavailable_reason(); };
  f.device = [] {
    const device_properties& p = device::get().properties();
    return device_info{p.name,
                       p.driver + (p.strict_lines ? ", strict lines" : ", non-strict lines") +
                           (device::get().validation() ? ", validation on" : ""),
                       identity_of(p), heat};
  };
  f.calibrate = [] { return vk::fragment_calibrate(); };
  f.algorithms = shader_era::entries("vkfrag",
                                     {shader_era::concat_method::stacks, shader_era::concat_method::automatic,
                                      shader_era::concat_method::lines, shader_era::concat_method::rects},
                                     [] { return std::make_unique<fragment_executor>(); });
  f.algorithms.push_back(
      shader_era::histopyramid_entry("vkfrag", [] { return std::make_unique<fragment_executor>(); }));
  r.add(std::move(f));
}

} // namespace winnow::vk
