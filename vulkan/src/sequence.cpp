#include "winnow/vulkan/sequence.hpp"

#include <array>
#include <iostream>

#include "winnow/vulkan/check.hpp"
#include "winnow/settings.hpp"
#include "winnow/vulkan/device.hpp"

namespace winnow::vk {
namespace {

/// Everything written before → everything after: the edges of a sequence, so its buffers are
/// visible to the transfers and the next sequence whatever they do.
void full_barrier(VkCommandBuffer cmd) {
  VkMemoryBarrier b{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  b.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
  b.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1, &b, 0,
                       nullptr, 0, nullptr);
}

} // namespace

sequence::sequence(std::string name, std::uint32_t max_marks) : m_name(std::move(name)), m_max_marks(max_marks) {
  device& d = device::get();
  VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pci.queueFamilyIndex = d.queue_family();
  WINNOW_VK_CHECK(vkCreateCommandPool(d.handle(), &pci, nullptr, &m_pool));
  // A run sequence keeps a few for kick() from the start, so that a timed run allocates none until it
  // kicks more often than that.
  add_command_buffers(m_max_marks > 1 ? 8 : 1);
  m_cmd = m_cmds.front();
  VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  WINNOW_VK_CHECK(vkCreateFence(d.handle(), &fci, nullptr, &m_fence));
  if (m_max_marks > 1) {
    VkQueryPoolCreateInfo qci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    qci.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qci.queryCount = m_max_marks;
    WINNOW_VK_CHECK(vkCreateQueryPool(d.handle(), &qci, nullptr, &m_queries));
  }
}

sequence::~sequence() {
  const VkDevice d = device::get().handle();
  if (m_pending && vkWaitForFences(d, 1, &m_fence, VK_TRUE, 60'000'000'000ull) != VK_SUCCESS) {
    // Destroying a command buffer the device still runs is undefined; nothing sane is left to do.
    std::cerr << "winnow::vk::sequence: '" << m_name << "' is still running at destruction\n";
    std::terminate();
  }
  if (m_unfenced) vkQueueWaitIdle(device::get().queue()); // kicked and never fenced: an error cut the run
  if (m_queries) vkDestroyQueryPool(d, m_queries, nullptr);
  vkDestroyFence(d, m_fence, nullptr);
  if (m_order) vkDestroySemaphore(d, m_order, nullptr);
  vkDestroyCommandPool(d, m_pool, nullptr);
}

std::chrono::milliseconds sequence::default_timeout() {
  static const auto timeout =
      std::chrono::milliseconds(env_integer("WINNOW_VK_TIMEOUT_MS", 1, 3'600'000).value_or(60'000));
  return timeout;
}

void sequence::begin() {
  if (m_recording) throw error("winnow::vk::sequence: '" + m_name + "' is already recording");
  if (m_pending) throw error("winnow::vk::sequence: '" + m_name + "' was submitted and not waited for");
  m_cmd = m_cmds.front();
  m_next = 1;
  m_held = VK_NULL_HANDLE; // one an error cut off before its submission is recorded over
  open(true);
}

void sequence::kick() {
  if (!m_recording) throw error("winnow::vk::sequence: '" + m_name + "': kick without a recording");
  close(false, false);
  next_command_buffer();
  open(false);
}

void sequence::kick_ordered() {
  if (!m_recording) throw error("winnow::vk::sequence: '" + m_name + "': kick_ordered without a recording");
  if (m_held) throw error("winnow::vk::sequence: '" + m_name + "': two kick_ordered in one submission");
  if (!m_order) {
    VkSemaphoreCreateInfo sci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    WINNOW_VK_CHECK(vkCreateSemaphore(device::get().handle(), &sci, nullptr, &m_order));
  }
  end_recording(false);
  m_held = m_cmd;
  next_command_buffer();
  open(false);
}

void sequence::next_command_buffer() {
  if (m_next == m_cmds.size()) add_command_buffers(1);
  m_cmd = m_cmds[m_next++];
}

void sequence::add_command_buffers(std::uint32_t count) {
  VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  ai.commandPool = m_pool;
  ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  ai.commandBufferCount = count;
  const std::size_t had = m_cmds.size();
  m_cmds.resize(had + count);
  WINNOW_VK_CHECK(vkAllocateCommandBuffers(device::get().handle(), &ai, m_cmds.data() + had));
}

void sequence::open(bool fresh) {
  WINNOW_VK_CHECK(vkResetCommandBuffer(m_cmd, 0));
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  WINNOW_VK_CHECK(vkBeginCommandBuffer(m_cmd, &bi));
  if (fresh && m_queries) vkCmdResetQueryPool(m_cmd, m_queries, 0, m_max_marks);
  full_barrier(m_cmd);
  m_recording = true;
  m_passes = false;
  if (fresh) {
    m_marks.clear();
    m_stamps = 0;
  } else if (!m_marks.empty()) {
    // The phase goes on in this command buffer: label it again for captures.
    device::get().begin_label(m_cmd, m_marks.back());
    m_label_open = true;
  }
}

void sequence::split(std::chrono::milliseconds timeout) {
  if (!m_recording) throw error("winnow::vk::sequence: '" + m_name + "': split without a recording");
  close(false);
  // Polled, not waited: the run is stalled until the host records the rest, and a blocking fence
  // wait woke up 100 µs after the work was done on the H100 (the whole sample phase took 120 µs).
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  const VkDevice d = device::get().handle();
  VkResult r = VK_NOT_READY;
  while ((r = vkGetFenceStatus(d, m_fence)) == VK_NOT_READY && std::chrono::steady_clock::now() < deadline) {}
  if (r == VK_NOT_READY)
    throw error("winnow::vk::sequence: '" + m_name + "' did not finish within " + std::to_string(timeout.count()) +
                " ms (fence timeout)");
  wait(timeout);          // signalled (or lost: wait names it): returns at once, clears m_pending
  m_cmd = m_cmds.front(); // every command buffer of the run is done
  m_next = 1;
  open(false);
}

void sequence::barrier() {
  VkMemoryBarrier b{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  b.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  b.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
  vkCmdPipelineBarrier(m_cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &b, 0,
                       nullptr, 0, nullptr);
}

void sequence::host_barrier() {
  VkMemoryBarrier b{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  b.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
  b.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT | VK_ACCESS_HOST_READ_BIT;
  vkCmdPipelineBarrier(m_cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                       VK_PIPELINE_STAGE_ALL_COMMANDS_BIT | VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &b, 0, nullptr, 0,
                       nullptr);
}

void sequence::dispatch(const pipeline& p, std::span<const std::byte> push, std::uint64_t groups, bool after_previous) {
  if (!m_recording) throw error("winnow::vk::sequence: '" + m_name + "': dispatch outside a recording");
  if (m_passes && after_previous) barrier();
  m_passes = true;
  if (groups == 0) return; // nothing to do, but the barrier keeps the order of what follows
  const std::uint64_t max_x = device::get().properties().max_group_count_x;
  const std::uint64_t x = groups <= max_x ? groups : (max_x >= 32768 ? 32768 : max_x);
  const std::uint64_t y = (groups + x - 1) / x;
  if (y > 65535)
    throw unavailable("winnow::vk::sequence: " + std::to_string(groups) + " workgroups of " + p.key().shader +
                      " exceed the dispatch limits");
  vkCmdBindPipeline(m_cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p.handle());
  if (push.size() > max_push_bytes || push.size() % 4)
    throw error("winnow::vk::sequence: " + std::to_string(push.size()) + " bytes of push constants for " +
                p.key().shader);
  if (!push.empty())
    vkCmdPushConstants(m_cmd, p.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, static_cast<std::uint32_t>(push.size()),
                       push.data());
  vkCmdDispatch(m_cmd, static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y), 1);
}

void sequence::predicate_barrier() {
  // The conditional-rendering stage and access are what the spec asks for; every other command and
  // read too, as translation layers do for their predicates (vkd3d-proton waits at the indirect
  // stage), in case a driver latches the predicate earlier than that stage says.
  VkMemoryBarrier b{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  b.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  b.dstAccessMask =
      VK_ACCESS_CONDITIONAL_RENDERING_READ_BIT_EXT | VK_ACCESS_INDIRECT_COMMAND_READ_BIT | VK_ACCESS_MEMORY_READ_BIT;
  vkCmdPipelineBarrier(m_cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                       VK_PIPELINE_STAGE_CONDITIONAL_RENDERING_BIT_EXT | VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1, &b,
                       0, nullptr, 0, nullptr);
}

void sequence::begin_if(VkBuffer predicate, VkDeviceSize offset) {
  if (!m_recording || m_if)
    throw error("winnow::vk::sequence: '" + m_name + "': begin_if outside a recording or within another");
  device::get().begin_conditional(m_cmd, predicate, offset);
  m_if = true;
}

void sequence::end_if() {
  if (!m_if) throw error("winnow::vk::sequence: '" + m_name + "': end_if without begin_if");
  device::get().end_conditional(m_cmd);
  m_if = false;
}

void sequence::mark(std::string_view name) {
  if (!m_recording)
    throw error("winnow::vk::sequence: '" + m_name + "': timestamp '" + std::string(name) + "' outside a recording");
  if (!m_queries || m_stamps + 1 >= m_max_marks)
    throw error("winnow::vk::sequence: '" + m_name + "': more than " + std::to_string(m_max_marks) + " timestamps");
  vkCmdWriteTimestamp(m_cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, m_queries, m_stamps++);
  // The phase is a debug label too, so a capture in RenderDoc or Nsight shows it by name.
  const device& d = device::get();
  if (m_label_open) d.end_label(m_cmd);
  d.begin_label(m_cmd, name);
  m_label_open = true;
  m_marks.emplace_back(name);
}

void sequence::submit() {
  if (!m_recording) throw error("winnow::vk::sequence: '" + m_name + "': submit without a recording");
  close(true);
}

void sequence::end_recording(bool last) {
  if (m_if) throw error("winnow::vk::sequence: '" + m_name + "': a command buffer ends within begin_if … end_if");
  // The last timestamp ends the last phase; a split leaves the phase open for the next mark.
  if (last && m_stamps) vkCmdWriteTimestamp(m_cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, m_queries, m_stamps++);
  if (m_label_open) device::get().end_label(m_cmd);
  m_label_open = false;
  full_barrier(m_cmd);
  WINNOW_VK_CHECK(vkEndCommandBuffer(m_cmd));
  m_recording = false;
}

void sequence::close(bool last, bool fenced) {
  end_recording(last);
  device& d = device::get();
  if (fenced) WINNOW_VK_CHECK(vkResetFences(d.handle(), 1, &m_fence));
  // After kick_ordered: the held command buffer, then this one, which starts nothing before the
  // held one is done.
  std::array<VkSubmitInfo, 2> batches{VkSubmitInfo{VK_STRUCTURE_TYPE_SUBMIT_INFO},
                                      VkSubmitInfo{VK_STRUCTURE_TYPE_SUBMIT_INFO}};
  std::uint32_t count = 0;
  const VkPipelineStageFlags wait_stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
  if (m_held) {
    batches[0].commandBufferCount = 1;
    batches[0].pCommandBuffers = &m_held;
    batches[0].signalSemaphoreCount = 1;
    batches[0].pSignalSemaphores = &m_order;
    batches[1].waitSemaphoreCount = 1;
    batches[1].pWaitSemaphores = &m_order;
    batches[1].pWaitDstStageMask = &wait_stage;
    count = 1;
  }
  batches[count].commandBufferCount = 1;
  batches[count].pCommandBuffers = &m_cmd;
  ++count;
  // The fence of a submission also covers every submission before it on the queue: the last,
  // fenced one stands for the command buffers kicked before it.
  if (const VkResult r = vkQueueSubmit(d.queue(), count, batches.data(), fenced ? m_fence : VK_NULL_HANDLE);
      r != VK_SUCCESS)
    throw error("winnow::vk::sequence: '" + m_name + "': vkQueueSubmit: " + std::string(to_string(r)));
  m_held = VK_NULL_HANDLE;
  (fenced ? m_pending : m_unfenced) = true;
}

void sequence::wait(std::chrono::milliseconds timeout) {
  if (!m_pending) throw error("winnow::vk::sequence: '" + m_name + "': wait without a submission");
  const auto ns = static_cast<std::uint64_t>(std::chrono::nanoseconds(timeout).count());
  const VkResult r = vkWaitForFences(device::get().handle(), 1, &m_fence, VK_TRUE, ns);
  if (r == VK_TIMEOUT)
    throw error("winnow::vk::sequence: '" + m_name + "' did not finish within " + std::to_string(timeout.count()) +
                " ms (fence timeout)");
  if (r == VK_ERROR_DEVICE_LOST)
    throw context_lost("winnow::vk::sequence: '" + m_name + "': device lost (VK_ERROR_DEVICE_LOST)");
  if (r == VK_SUCCESS) m_unfenced = false;
  if (r != VK_SUCCESS)
    throw error("winnow::vk::sequence: '" + m_name + "': vkWaitForFences: " + std::string(to_string(r)));
  m_pending = false;
}

std::vector<phase_time> sequence::read_marks() {
  if (m_recording || m_pending)
    throw error("winnow::vk::sequence: '" + m_name + "': timestamps read before the submission finished");
  std::vector<phase_time> out;
  if (m_stamps < 2) return out;
  std::vector<std::uint64_t> ticks(m_stamps);
  device& d = device::get();
  WINNOW_VK_CHECK(vkGetQueryPoolResults(d.handle(), m_queries, 0, m_stamps, ticks.size() * sizeof(std::uint64_t),
                                        ticks.data(), sizeof(std::uint64_t),
                                        VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
  const std::uint32_t bits = d.properties().timestamp_valid_bits;
  const std::uint64_t mask = bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
  for (std::size_t i = 0; i + 1 < ticks.size(); ++i) {
    const std::uint64_t delta = ((ticks[i + 1] & mask) - (ticks[i] & mask)) & mask; // survives one wrap
    out.push_back({m_marks[i], static_cast<double>(delta) * d.properties().timestamp_period});
  }
  return out;
}

sequence& transfer_sequence() {
  static sequence s("winnow::vk transfer", 1);
  return s;
}

timestamps::timestamps(sequence& s) : m_seq(&s) {
  const device_properties& p = device::get().properties();
  if (p.timestamp_valid_bits == 0)
    throw unavailable("winnow::vk::timestamps: the compute queue of " + p.name +
                      " has no timestamps (timestampValidBits = 0)");
}

void timestamps::phase(std::string_view name) { m_seq->mark(name); }

void timestamps::stop() {
  if (m_seq->recording())
    throw error("winnow::vk::timestamps: '" + m_seq->name() +
                "' is still recording after run() (it must submit and wait)");
}

std::vector<phase_time> timestamps::read() { return m_seq->read_marks(); }

} // namespace winnow::vk
