#pragma once
// winnow::timer on CUDA events: an event is recorded on the stream at every phase mark and at the
// end; stop() waits for the last one; read() turns consecutive events into phase durations. No
// event is created during a run (a pool grows only when a run marks more phases than ever before).
// Every phase is an NVTX range of its name too, for Nsight Systems.
#include <cuda_runtime_api.h>

#include <functional>
#include <string>
#include <vector>

#include "winnow/timer.hpp"

namespace winnow::cuda {

class event_timer final : public winnow::timer {
public:
  explicit event_timer(cudaStream_t stream);
  ~event_timer() override;
  event_timer(const event_timer&) = delete;
  event_timer& operator=(const event_timer&) = delete;

  void start() override;
  void phase(std::string_view name) override;
  void stop() override;
  std::vector<phase_time> read() override;
  [[nodiscard]] std::string clock() const override { return "CUDA events"; }

private:
  void record();
  cudaStream_t m_stream;
  std::vector<cudaEvent_t> m_events;
  std::vector<std::string> m_names;
  std::size_t m_used = 0;
};

/// The time `work` takes on `stream`, measured as one phase of an event timer (the stream is idle
/// after it). For the calibrate step's measurements, which time a piece of work rather than a run.
[[nodiscard]] double time_ns(cudaStream_t stream, const std::function<void()>& work);
/// The median time of `runs` calls of `once` on `stream`, each timed on its own after `restore`
/// (untimed), after one untimed call: one call's cost, as a program that makes one call sees it.
[[nodiscard]] double median_time_ns(cudaStream_t stream, int runs, const std::function<void()>& restore,
                                    const std::function<void()>& once);

} // namespace winnow::cuda
