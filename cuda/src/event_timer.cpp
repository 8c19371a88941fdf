#include "event_timer.hpp"

#include <algorithm>

#include <nvtx3/nvToolsExt.h>

#include <atomic>
#include <cstdlib>
#include <iostream>
#include <string_view>

#include "check.hpp"
#include "dispatch/hold.hpp"
#include "winnow/settings.hpp"

namespace winnow::cuda {
namespace {

/// How long a hold waits for its gate: far longer than any run takes to queue (a few µs a launch),
/// short enough that a run waiting on the host inside loses little time once.
constexpr std::uint64_t hold_timeout_ns = 50'000'000;

} // namespace

bool every_launch_waits() {
#if defined(WINNOW_CUDA_DEBUG_SYNC)
  return true; // check_launch waits for each kernel (check.hpp)
#else
  const char* blocking = std::getenv("CUDA_LAUNCH_BLOCKING");
  return blocking != nullptr && std::string_view(blocking) == "1";
#endif
}

bool held_launches() {
  static const bool on = [] {
    if (!env_flag("WINNOW_CUDA_HOLD").value_or(false)) return false;
    if (!every_launch_waits()) return true;
    std::cerr << "winnow: WINNOW_CUDA_HOLD=1 holds nothing where every launch waits for its kernel (a Debug "
                 "build, or CUDA_LAUNCH_BLOCKING=1): runs are timed unheld, as records' timer field says\n";
    return false;
  }();
  return on;
}

event_timer::event_timer(cudaStream_t stream, bool hold) : m_stream(stream) {
  if (hold) {
    void* gate = nullptr;
    WINNOW_CUDA_CHECK(cudaHostAlloc(&gate, 2 * sizeof(std::uint32_t), cudaHostAllocMapped));
    m_gate = static_cast<std::uint32_t*>(gate);
    void* d_gate = nullptr;
    WINNOW_CUDA_CHECK(cudaHostGetDevicePointer(&d_gate, gate, 0));
    m_d_gate = static_cast<std::uint32_t*>(d_gate);
  }
  // More than any algorithm marks (mark, count, scan, move, …); created here, not in a run.
  for (int i = 0; i < 16; ++i) {
    cudaEvent_t e = nullptr;
    WINNOW_CUDA_CHECK(cudaEventCreate(&e));
    m_events.push_back(e);
  }
}

event_timer::~event_timer() {
  if (m_gate) {
    // A run that threw between start() and stop() left its hold closed: open it, and let the hold
    // end before its memory goes.
    if (m_held) open_gate();
    check_noexcept(cudaStreamSynchronize(m_stream), "cudaStreamSynchronize");
    check_noexcept(cudaFreeHost(m_gate), "cudaFreeHost");
  }
  for (cudaEvent_t e : m_events) check_noexcept(cudaEventDestroy(e), "cudaEventDestroy");
}

void event_timer::open_gate() noexcept {
  std::atomic_ref<std::uint32_t>(m_gate[0]).store(1, std::memory_order_release);
}

std::string event_timer::clock() const {
  if (!m_gate) return "CUDA events";
  // Why a hold timed out is not known here: a run waiting on the host inside, or a kernel's first
  // launch loading its module.
  if (!holding()) return "CUDA events (runs not held: two holds in a row timed out)";
  return "CUDA events, each run queued behind a hold" +
         (m_unheld ? " (" + std::to_string(m_unheld) + " not held: their hold timed out)" : std::string());
}

void event_timer::record() {
  if (m_used == m_events.size()) {
    cudaEvent_t e = nullptr;
    WINNOW_CUDA_CHECK(cudaEventCreate(&e));
    m_events.push_back(e);
  }
  WINNOW_CUDA_CHECK(cudaEventRecord(m_events[m_used++], m_stream));
}

void event_timer::start() {
  m_used = 0;
  m_names.clear();
  m_held = holding();
  if (!m_held) return;
  std::atomic_ref<std::uint32_t>(m_gate[0]).store(0, std::memory_order_relaxed);
  std::atomic_ref<std::uint32_t>(m_gate[1]).store(0, std::memory_order_relaxed);
  launch_hold(m_d_gate, hold_timeout_ns, m_stream);
}

// Each phase is also an NVTX range of its name, so Nsight Systems shows the algorithm's phases on
// the timeline (the range covers the host's enqueueing; Nsight projects it onto the GPU's work).
// Without a tool attached, NVTX calls return at once.
void event_timer::phase(std::string_view name) {
  if (!m_names.empty()) nvtxRangePop();
  m_names.emplace_back(name);
  record();
  nvtxRangePushA(m_names.back().c_str());
}

void event_timer::stop() {
  record();
  if (!m_names.empty()) nvtxRangePop();
  if (m_held) open_gate(); // the run is queued
  WINNOW_CUDA_CHECK(cudaEventSynchronize(m_events[m_used - 1]));
  if (!m_held) return;
  m_held = false;
  const bool gave_up = std::atomic_ref<std::uint32_t>(m_gate[1]).load(std::memory_order_acquire) != 0;
  m_unheld += gave_up;
  m_unheld_in_a_row = gave_up ? m_unheld_in_a_row + 1 : 0;
}

std::vector<phase_time> event_timer::read() {
  std::vector<phase_time> out;
  for (std::size_t i = 0; i + 1 < m_used; ++i) {
    float ms = 0;
    WINNOW_CUDA_CHECK(cudaEventElapsedTime(&ms, m_events[i], m_events[i + 1]));
    out.push_back({m_names[i], static_cast<double>(ms) * 1e6});
  }
  return out;
}

double time_ns(cudaStream_t stream, const std::function<void()>& work) {
  event_timer t(stream);
  t.start();
  t.phase("work");
  work();
  t.stop();
  return t.read().at(0).ns;
}

double median_time_ns(cudaStream_t stream, int runs, const std::function<void()>& restore,
                      const std::function<void()>& once) {
  if (runs < 1) throw error("winnow::cuda::median_time_ns: " + std::to_string(runs) + " runs (at least 1)");
  restore();
  once();
  std::vector<double> ns;
  for (int i = 0; i < runs; ++i) {
    restore();
    ns.push_back(time_ns(stream, once));
  }
  const auto middle = ns.begin() + runs / 2;
  std::nth_element(ns.begin(), middle, ns.end());
  return *middle;
}

} // namespace winnow::cuda
