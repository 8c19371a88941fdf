#pragma once
// winnow::timer on CUDA events: an event is recorded on the stream at every phase mark and at the
// end; stop() waits for the last one; read() turns consecutive events into phase durations. No
// event is created during a run (a pool grows only when a run marks more phases than ever before).
// Every phase is an NVTX range of its name too, for Nsight Systems.
//
// Held (WINNOW_CUDA_HOLD=1, held_launches()): start() queues a kernel that holds the stream until
// stop() opens its gate, so a run's launches queue up behind it and run back to back; the events
// time the device's work alone, not the host's enqueueing between launches (nvbench's blocking
// kernel). A run that waits on the host inside (thrust's algorithms read their count back) would
// wait for the gate: the hold gives up after 50 ms. So does a run whose first launch of a kernel
// loads its module (CUDA's lazy loading waits for the device to go idle): once per kernel and
// process, in the warm-up of the first record that launches it. After two runs in a row that the
// hold gave up on, the timer holds no more.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "winnow/timer.hpp"

namespace winnow::cuda {

class event_timer final : public winnow::timer {
public:
  explicit event_timer(cudaStream_t stream, bool hold = false);
  ~event_timer() override;
  event_timer(const event_timer&) = delete;
  event_timer& operator=(const event_timer&) = delete;

  void start() override;
  void phase(std::string_view name) override;
  void stop() override;
  std::vector<phase_time> read() override;
  [[nodiscard]] std::string clock() const override;
  /// Whether runs are still held (false where a hold gave up, or none was asked for).
  [[nodiscard]] bool holding() const { return m_gate != nullptr && m_unheld_in_a_row < 2; }

private:
  void record();
  void open_gate() noexcept;
  cudaStream_t m_stream;
  std::uint32_t* m_gate = nullptr; ///< host-mapped: [0] opens the hold, [1] the hold kernel gave up
  std::uint32_t* m_d_gate = nullptr;
  bool m_held = false;       ///< this run is held and its gate not yet opened
  int m_unheld_in_a_row = 0; ///< runs in a row whose hold gave up (two: no more holds)
  int m_unheld = 0;          ///< runs whose hold gave up
  std::vector<cudaEvent_t> m_events;
  std::vector<std::string> m_names;
  std::size_t m_used = 0;
};

/// WINNOW_CUDA_HOLD (0 or 1, default 0), read once: whether the algorithms' timers hold their runs.
/// Never where every launch waits for its kernel (every_launch_waits): a hold would only time out.
[[nodiscard]] bool held_launches();
/// Whether every launch waits for its kernel: a Debug build (check_launch synchronizes) or
/// CUDA_LAUNCH_BLOCKING=1.
[[nodiscard]] bool every_launch_waits();

/// The time `work` takes on `stream`, measured as one phase of an event timer (the stream is idle
/// after it). For the calibrate step's measurements, which time a piece of work rather than a run.
[[nodiscard]] double time_ns(cudaStream_t stream, const std::function<void()>& work);
/// The median time of `runs` calls of `once` on `stream`, each timed on its own after `restore`
/// (untimed), after one untimed call: one call's cost, as a program that makes one call sees it.
[[nodiscard]] double median_time_ns(cudaStream_t stream, int runs, const std::function<void()>& restore,
                                    const std::function<void()>& once);

} // namespace winnow::cuda
