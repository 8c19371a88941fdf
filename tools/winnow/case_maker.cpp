#include "case_maker.hpp"

#include <algorithm>
#include <utility>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include "memory.hpp"
#include "winnow/error.hpp"
#include "winnow/reference.hpp"

namespace winnow::cli {

case_maker::case_maker(std::vector<case_spec> specs)
    : m_specs(std::move(specs)), m_made(m_specs.size()), m_failed(m_specs.size()) {}

made_case case_maker::take(std::size_t i) {
  if (i >= m_end) make_batch(i);
  if (m_failed[i]) std::rethrow_exception(std::exchange(m_failed[i], nullptr));
  return std::exchange(m_made[i], {});
}

void case_maker::make_batch(std::size_t first) {
  m_end = first + 1;
  // The first case must fit beside nothing else, as when cases were made one at a time.
  try {
    check_fits(m_specs[first]);
  } catch (const usage_error& e) {
    m_made[first].why_not = e.what();
    return;
  }
  // Then each next case while the batch's corpora, with the working copies of the largest run among
  // them, fit in three quarters of the memory available now: the working copies are an estimate, and
  // the drivers' own (staging buffers, a software rasterizer's images) are not in it.
  const std::uint64_t have = available_memory() / 4 * 3;
  const auto cores = static_cast<std::size_t>(tbb::this_task_arena::max_concurrency());
  std::uint64_t held = 0, working = 0;
  for (std::size_t i = first; i < m_specs.size() && i - first < cores; ++i) {
    std::uint64_t corpus = 0, run = 0;
    try {
      corpus = footprint_bytes(m_specs[i]);
      run = run_footprint(m_specs[i]);
    } catch (const usage_error&) {
      // An image file that cannot be read: making it fails at once, with the same message.
    }
    if (i > first && held + corpus + std::max(working, run - corpus) > have) break;
    held += corpus;
    working = std::max(working, run - corpus);
    m_end = i + 1;
  }
  // One task a case (simple_partitioner, grain 1): each is sequential inside, and none waits behind another.
  const auto make = [&](const tbb::blocked_range<std::size_t>& r) {
    const std::size_t i = r.begin();
    made_case& m = m_made[i];
    try {
      m.c.emplace(prepared_case{generate(m_specs[i]), {}});
      m.c->expected = reference_compact(m.c->w);
    } catch (const usage_error& e) {
      m.c.reset();
      m.why_not = e.what();
    } catch (...) {
      m.c.reset();
      m_failed[i] = std::current_exception();
    }
  };
  tbb::parallel_for(tbb::blocked_range<std::size_t>(first, m_end, 1), make, tbb::simple_partitioner());
}

} // namespace winnow::cli
