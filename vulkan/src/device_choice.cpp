// The choice of a physical device, apart from creating one: which qualify, which comes first, and a
// reason for every candidate (vk-bootstrap's PhysicalDeviceSelector, with its reasons).
#include "winnow/vulkan/device.hpp"

namespace winnow::vk {
namespace {

int rank(VkPhysicalDeviceType t) {
  switch (t) {
  case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 0;
  case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 1;
  case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
  case VK_PHYSICAL_DEVICE_TYPE_CPU: return 3;
  default: return 4;
  }
}

std::string describe(const device_candidate& c) {
  return c.name + " (" + std::string(to_string(c.type)) + ", Vulkan " + version_string(c.api_version) + ")";
}

} // namespace

std::string_view to_string(VkPhysicalDeviceType t) {
  switch (t) {
  case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete GPU";
  case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated GPU";
  case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual GPU";
  case VK_PHYSICAL_DEVICE_TYPE_CPU: return "CPU";
  default: return "other";
  }
}

std::string version_string(std::uint32_t v) {
  return std::to_string(VK_API_VERSION_MAJOR(v)) + "." + std::to_string(VK_API_VERSION_MINOR(v)) + "." +
         std::to_string(VK_API_VERSION_PATCH(v));
}

device_choice choose_device(const std::vector<device_candidate>& candidates) {
  device_choice out;
  std::vector<std::string> missing(candidates.size());
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const auto& c = candidates[i];
    std::string& m = missing[i];
    if (c.api_version < VK_API_VERSION_1_2) m = "Vulkan " + version_string(c.api_version) + " < 1.2";
    else if (!c.compute_queue) m = "no queue family with VK_QUEUE_COMPUTE_BIT";
    else if (!c.timestamps) m = "its compute queue has no timestamps (timestampValidBits = 0)";
    else if (!c.buffer_device_address) m = "no bufferDeviceAddress (the passes address buffers by pointer)";
    if (!m.empty()) continue;
    if (!out.chosen || rank(c.type) < rank(candidates[*out.chosen].type)) out.chosen = i;
  }
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    std::string line = describe(candidates[i]);
    if (!missing[i].empty()) line += ": not taken — " + missing[i];
    else if (out.chosen == i) {
      line += ": taken — ";
      line += candidates[i].type == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU
                  ? "a discrete GPU with a compute queue"
                  : "no discrete GPU qualifies; a device with a compute queue";
    } else {
      line += ": not taken — " +
              std::string(rank(candidates[i].type) > rank(candidates[*out.chosen].type) ? "a " : "") +
              (rank(candidates[i].type) > rank(candidates[*out.chosen].type)
                   ? std::string(to_string(candidates[*out.chosen].type)) + " (" + candidates[*out.chosen].name +
                         ") is preferred"
                   : candidates[*out.chosen].name + " qualifies too and comes first");
    }
    out.reasons.push_back(std::move(line));
  }
  return out;
}

} // namespace winnow::vk
