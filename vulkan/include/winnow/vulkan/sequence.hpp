#pragma once
/// A sequence of commands: record → submit → wait, on the device's compute queue, with a fence
/// waited under a timeout that names the sequence, and timestamps at phase boundaries (a query pool
/// read after the wait). Passes are separated by a compute-write → compute-read barrier.
#include <vulkan/vulkan.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "winnow/timer.hpp"
#include "winnow/vulkan/pipeline.hpp"

namespace winnow::vk {

class sequence {
public:
  /// `max_marks`: timestamps one recording may write (phase marks + the closing one).
  explicit sequence(std::string name, std::uint32_t max_marks = 64);
  sequence(const sequence&) = delete;
  sequence& operator=(const sequence&) = delete;
  ~sequence();

  /// Starts a recording (the previous submission must have been waited for).
  void begin();
  [[nodiscard]] VkCommandBuffer cmd() const { return m_cmd; }
  [[nodiscard]] bool recording() const { return m_recording; }
  [[nodiscard]] const std::string& name() const { return m_name; }

  /// Shader writes (and transfers) before → shader reads and writes (and transfers) after.
  void barrier();
  /// Every write before → every access after, the host's too: around a copy into a mapped buffer
  /// that the host reads once the submission is done.
  void host_barrier();
  /// Binds `p`, pushes `push` (at most max_push_bytes) and dispatches `groups` workgroups (split into
  /// x × y when over maxComputeWorkGroupCount[0]; shaders linearize with group_index()). Emits a
  /// barrier first when a pass was recorded before it in this recording, unless `after_previous` is
  /// false: it reads nothing the passes since the last barrier write (a round of record_round).
  void dispatch(const pipeline& p, std::span<const std::byte> push, std::uint64_t groups, bool after_previous = true);
  /// The same with a typed push-constant block (the struct its shader declares).
  template <class T> void dispatch(const pipeline& p, const T& push, std::uint64_t groups) {
    static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= max_push_bytes);
    dispatch(p, std::span<const std::byte>(reinterpret_cast<const std::byte*>(&push), sizeof(T)), groups);
  }
  /// After a copy into a predicate buffer: transfer writes → the conditional rendering's read.
  void predicate_barrier();
  /// The draws and dispatches recorded until end_if() run only where the 32-bit word at `offset` of
  /// `predicate` is not 0 when the device reaches them (VK_EXT_conditional_rendering); barriers,
  /// copies and timestamps run regardless. It cannot span command buffers: kick() and split() refuse
  /// while it is open.
  void begin_if(VkBuffer predicate, VkDeviceSize offset);
  void end_if();
  /// Timestamp at a phase boundary: `name` starts here, the previous phase ends here.
  void mark(std::string_view name);

  /// Ends the recording (a closing timestamp when marks were written) and submits it.
  void submit();
  /// Waits for the last submission. Throws winnow::error "winnow::vk::sequence: 'NAME' did not finish
  /// within T ms" on timeout, and names the sequence on device loss.
  void wait(std::chrono::milliseconds timeout = default_timeout());
  void submit_and_wait(std::chrono::milliseconds timeout = default_timeout()) {
    submit();
    wait(timeout);
  }
  /// Within a recording: submits what is recorded, waits for it (polling the fence: the run is stalled
  /// meanwhile), and records on into a fresh command buffer as the same run — its timestamps go on,
  /// so the phase open at the split lasts until the device reaches the next mark: the wait, and the
  /// host's recording until the command buffer holding that mark is submitted (kick() or the end).
  /// A read between them sees the passes' results.
  void split(std::chrono::milliseconds timeout = default_timeout());
  /// Within a recording: submits what is recorded without waiting, and records on into another command
  /// buffer as the same run, so that the device starts on the first passes while the host records
  /// the rest (after a split, the device would otherwise idle while the host records them all).
  void kick();
  /// Within a recording: ends the command buffer here and records on into another, both submitted
  /// together by the next submission (kick, split or the end), the second waiting for the first to
  /// finish (a semaphore between the two batches: no command of the second executes before). Nothing
  /// is submitted here, so the device does not idle inside the run while the host records the rest.
  /// For what the device reads ahead of its barriers: on NVIDIA's driver the first conditional
  /// dispatch after a copy into its predicate buffer read the predicate from before the copy, despite
  /// the barrier that orders the copy before the conditional-rendering stage (docs/driver-quirks.md).
  /// One per submission.
  void kick_ordered();
  /// Phase durations of the last finished run [ns], from its timestamps.
  [[nodiscard]] std::vector<phase_time> read_marks();
  /// 60 s, or WINNOW_VK_TIMEOUT_MS (1 … 3600000; another value is a usage error).
  [[nodiscard]] static std::chrono::milliseconds default_timeout();

private:
  void add_command_buffers(std::uint32_t count);
  void next_command_buffer(); ///< m_cmd moves on to the next of m_cmds, allocated if none is left
  void open(bool fresh);      ///< begins the command buffer; fresh: a new run (queries and marks reset)
  /// Ends the command buffer (last: with the closing timestamp).
  void end_recording(bool last);
  /// end_recording(last), then submits it, after the one kick_ordered() held if any (fenced: with the fence).
  void close(bool last, bool fenced = true);
  std::string m_name;
  std::uint32_t m_max_marks;
  VkCommandPool m_pool = VK_NULL_HANDLE;
  VkCommandBuffer m_cmd = VK_NULL_HANDLE;
  VkFence m_fence = VK_NULL_HANDLE;
  VkSemaphore m_order = VK_NULL_HANDLE;    ///< kick_ordered's, made on its first use
  VkCommandBuffer m_held = VK_NULL_HANDLE; ///< ended by kick_ordered, submitted before the next one
  VkQueryPool m_queries = VK_NULL_HANDLE;
  bool m_recording = false, m_pending = false, m_passes = false;
  bool m_if = false;                   ///< begin_if without its end_if yet
  bool m_unfenced = false;             ///< kicked command buffers no fence has covered yet
  std::vector<VkCommandBuffer> m_cmds; ///< the run's command buffers (kick() adds one as needed)
  std::size_t m_next = 1;              ///< the next of m_cmds a kick takes
  bool m_label_open = false;           ///< the last mark's debug label, closed by the next mark or the submit
  std::vector<std::string> m_marks;
  std::uint32_t m_stamps = 0; ///< timestamps written by the last recording
};

/// The one sequence of uploads, downloads and fills (buffers and images): never part of a timed run.
[[nodiscard]] sequence& transfer_sequence();

/// winnow::timer on a sequence's timestamps: phase() writes a timestamp into the recording that
/// run() has begun; read() converts ticks with timestampPeriod, masked to timestampValidBits.
/// Throws unavailable when the queue has no timestamps.
class timestamps final : public winnow::timer {
public:
  explicit timestamps(sequence& s);
  void start() override {}
  void phase(std::string_view name) override;
  /// The algorithm's run() has already submitted and waited; a recording left open is a bug.
  void stop() override;
  std::vector<phase_time> read() override;
  [[nodiscard]] std::string clock() const override { return "Vulkan timestamps"; }

private:
  sequence* m_seq;
};

} // namespace winnow::vk
