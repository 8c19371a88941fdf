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
    : m_specs(std::move(specs)), m_made(m_specs.size()), m_failed(m_specs.size()), m_taken(m_specs.size(), false) {}

made_case case_maker::take(std::size_t i) {
  if (i >= m_specs.size() || m_taken[i])
    throw error("case_maker: case " + std::to_string(i) + " of " + std::to_string(m_specs.size()) +
                " taken twice or never planned");
  m_taken[i] = true;
  if (i >= m_end) make_batch(i);
  // A case made before its turn was made beside others (a batch's first is taken when it is made):
  // if that failed, once more alone, as it would have been made one at a time.
  else if (m_failed[i]) make(i, i + 1);
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
  // them, fit in three quarters of the memory available now. The footprints are estimates (12 bytes an
  // element for a corpus where a removal case holds about 8; the reference's byte mask while it is
  // made, n bytes, is not in them), and the drivers' own memory (staging buffers, a software
  // rasterizer's images) is not in them at all: the quarter left is for those.
  const std::uint64_t have = available_memory() / 4 * 3;
  const auto cores = static_cast<std::size_t>(tbb::this_task_arena::max_concurrency());
  std::uint64_t held = 0, working = 0;
  for (std::size_t i = first; i < m_specs.size() && i - first < cores; ++i) {
    std::uint64_t corpus = 0, copies = 0;
    try {
      corpus = footprint_bytes(m_specs[i]);
      copies = working_bytes(m_specs[i]);
    } catch (const usage_error&) {
      // An image file that cannot be read: making it fails at once, with the same message.
    }
    if (i > first && held + corpus + std::max(working, copies) > have) break;
    held += corpus;
    working = std::max(working, copies);
    m_end = i + 1;
  }
  make(first, m_end);
}

void case_maker::make(std::size_t first, std::size_t end) {
  // One task a case (simple_partitioner, grain 1): each is sequential inside, and none waits behind another.
  const auto one = [&](const tbb::blocked_range<std::size_t>& r) {
    const std::size_t i = r.begin();
    made_case& m = m_made[i];
    m = {};
    m_failed[i] = nullptr;
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
  tbb::parallel_for(tbb::blocked_range<std::size_t>(first, end, 1), one, tbb::simple_partitioner());
}

} // namespace winnow::cli
