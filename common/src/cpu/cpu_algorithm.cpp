#include "cpu_algorithm.hpp"

#include <oneapi/tbb/parallel_for.h>

#include <algorithm>
#include <execution>
#include <thread>

#include <unistd.h>

#include "winnow/error.hpp"
#include "winnow/host_memory.hpp"

namespace winnow::cpu {

param_axis threads_axis() {
  const auto hw = std::max(1u, std::thread::hardware_concurrency());
  // The sweep covers one thread and more threads than this CI machine has cores (uneven splits).
  return integer_axis("threads", "oneTBB worker threads", std::to_string(hw), {"1", "3"}, 1, 1024);
}

cpu_algorithm::~cpu_algorithm() { recycle(m_a); }

void cpu_algorithm::prepare(const workload& w, const param_set& p, const prepare_options&) {
  m_w = &w;
  m_handed_over = false;
  assign_zeroed(m_a, w.size()); // huge pages: host_memory.hpp
  // A second prepare() may ask for other threads, and an initialized arena cannot change (oneTBB
  // asserts so in its debug builds, and its release builds would keep the old threads).
  if (m_arena.is_active()) m_arena.terminate();
  m_arena.initialize(p.contains("threads") ? static_cast<int>(p.integer("threads")) : 1);
}

namespace {

/// Twice the last-level cache (of 32 MiB where the system does not say): more than it can hold.
std::size_t beyond_last_level_cache() {
  const long llc = ::sysconf(_SC_LEVEL3_CACHE_SIZE);
  return 2 * (llc > 0 ? static_cast<std::size_t>(llc) : std::size_t{32} << 20);
}

} // namespace

void cpu_algorithm::reset() {
  if (m_handed_over) throw error("winnow::cpu: reset() after result(): its buffers were handed over; prepare() again");
  // On every core only where the input cannot stay in the cache anyway: a smaller one stays, as it
  // always has, in the cache of the thread that runs a one-thread algorithm.
  static const std::size_t parallel_from = beyond_last_level_cache() / sizeof(std::uint32_t);
  if (m_w->data.size() < parallel_from) std::copy(m_w->data.begin(), m_w->data.end(), m_a.begin());
  else std::copy(std::execution::par_unseq, m_w->data.begin(), m_w->data.end(), m_a.begin());
}

compaction_output cpu_algorithm::hand_over(std::vector<std::uint32_t>& values, std::size_t kept, bool out_of_place) {
  if (m_handed_over) throw error("winnow::cpu: result() twice: its buffers were handed over; prepare() again");
  m_handed_over = true;
  values.resize(kept); // shrinking keeps the allocation: no copy
  compaction_output out{std::move(values), std::nullopt};
  if (out_of_place) out.input_after = std::move(m_a);
  return out;
}

void cpu_algorithm::flush_caches() {
  static std::vector<std::uint8_t> scratch(beyond_last_level_cache());
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
