#include "passes.hpp"

#include <algorithm>

#include "winnow/error.hpp"
#include "winnow/vulkan/device.hpp"

namespace winnow::vk {

std::uint32_t log2_exact(std::uint64_t v) {
  std::uint32_t l = 0;
  while ((std::uint64_t{1} << l) < v) ++l;
  return l;
}

stream_layout layout_for(std::uint64_t count, std::uint32_t min_width, std::uint32_t max_width) {
  std::uint64_t w = min_width;
  while (w * w < count && w < max_width) w *= 2;
  const std::uint64_t h = count == 0 ? 1 : (count + w - 1) / w;
  if (h > 0xffffffffull) throw unavailable("winnow::vk: " + std::to_string(count) + " elements are too many");
  stream_layout l;
  l.width = static_cast<std::uint32_t>(w);
  l.height = static_cast<std::uint32_t>(h);
  l.log2_width = log2_exact(w);
  l.count = count;
  return l;
}

std::uint32_t default_local_size() {
  const device_properties& p = device::get().properties();
  return std::min({256u, p.max_group_size_x, p.max_invocations});
}

const pipeline& shader(const std::string& name, std::uint32_t local, std::vector<std::uint32_t> rest) {
  rest.insert(rest.begin(), local);
  return device::get().pipeline_for({name, std::move(rest), 0});
}

void pass_runner::run(const pipeline& p, pass_args args, std::uint64_t invocations, double reads) {
  if (invocations > 0xffffffffull) throw unavailable("winnow::vk: a pass of " + std::to_string(invocations) + " invocations");
  args.n = static_cast<std::uint32_t>(invocations);
  m_seq->dispatch(p, args, (invocations + p.local_size() - 1) / p.local_size());
  ++m_passes;
  m_read += static_cast<std::uint64_t>(reads * static_cast<double>(invocations));
  m_written += invocations;
}

void pass_runner::run_groups(const pipeline& p, const pass_args& args, std::uint64_t groups, std::uint64_t words_read,
                             std::uint64_t words_written) {
  m_seq->dispatch(p, args, groups);
  ++m_passes;
  m_read += words_read;
  m_written += words_written;
}

} // namespace winnow::vk
