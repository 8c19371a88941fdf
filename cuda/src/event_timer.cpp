#include "event_timer.hpp"

#include <algorithm>

#include <nvtx3/nvToolsExt.h>

#include "check.hpp"

namespace winnow::cuda {

event_timer::event_timer(cudaStream_t stream) : m_stream(stream) {
  // More than any algorithm marks (mark, count, scan, move, …); created here, not in a run.
  for (int i = 0; i < 16; ++i) {
    cudaEvent_t e = nullptr;
    WINNOW_CUDA_CHECK(cudaEventCreate(&e));
    m_events.push_back(e);
  }
}

event_timer::~event_timer() {
  for (cudaEvent_t e : m_events) check_noexcept(cudaEventDestroy(e), "cudaEventDestroy");
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
  WINNOW_CUDA_CHECK(cudaEventSynchronize(m_events[m_used - 1]));
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
