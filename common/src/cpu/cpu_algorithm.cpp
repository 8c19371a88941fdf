#include "cpu_algorithm.hpp"

#include <oneapi/tbb/parallel_for.h>

#include <algorithm>
#include <execution>
#include <thread>

#include <unistd.h>

#include "winnow/error.hpp"

namespace winnow::cpu {

param_axis threads_axis() {
  const auto hw = std::max(1u, std::thread::hardware_concurrency());
  // The sweep covers one thread and more threads than this CI machine has cores (uneven splits).
  return integer_axis("threads", "oneTBB worker threads", std::to_string(hw), {"1", "3"}, 1, 1024);
}

void cpu_algorithm::prepare(const workload& w, const param_set& p, const prepare_options&) {
  m_w = &w;
  m_handed_over = false;
  m_a.resize(w.size());
  m_arena.initialize(p.contains("threads") ? static_cast<int>(p.integer("threads")) : 1);
}

void cpu_algorithm::reset() {
  if (m_handed_over) throw error("winnow::cpu: reset() after result(): its buffers were handed over; prepare() again");
  std::copy(std::execution::par_unseq, m_w->data.begin(), m_w->data.end(), m_a.begin());
}

std::vector<std::uint32_t> cpu_algorithm::hand_over(std::vector<std::uint32_t>& v, std::size_t size) {
  m_handed_over = true;
  v.resize(size); // shrinking keeps the allocation: no copy
  return std::move(v);
}

void cpu_algorithm::flush_caches() {
  static std::vector<std::uint8_t> scratch = [] {
    const long llc = ::sysconf(_SC_LEVEL3_CACHE_SIZE);
    return std::vector<std::uint8_t>(2 * static_cast<std::size_t>(llc > 0 ? llc : 32l << 20));
  }();
  static std::uint8_t round = 0;
  std::fill(scratch.begin(), scratch.end(), ++round); // writes: the lines must be owned, not shared
}

void cpu_algorithm::mark(timer& t, bool parallel) {
  if (!m_w->removal_list) return;
  t.phase("mark");
  const auto& r = m_w->removals;
  if (!parallel) {
    for (const std::uint32_t i : r) m_a[i] = 0;
    return;
  }
  in_arena([&] {
    oneapi::tbb::parallel_for(oneapi::tbb::blocked_range<std::size_t>(0, r.size()), [&](const auto& range) {
      for (std::size_t i = range.begin(); i != range.end(); ++i) m_a[r[i]] = 0;
    });
  });
}

traffic cpu_algorithm::mark_traffic() const {
  if (!m_w->removal_list) return {};
  const std::uint64_t k = m_w->removals.size();
  return {4 * k, 4 * k};
}

} // namespace winnow::cpu
