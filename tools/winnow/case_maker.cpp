#include "case_maker.hpp"

#include <algorithm>
#include <utility>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include "memory.hpp"
#include "winnow/error.hpp"

namespace winnow::cli {
namespace {

std::size_t all_cores() { return static_cast<std::size_t>(tbb::this_task_arena::max_concurrency()); }
/// The cores a batch made ahead may use: two stay with the bench's thread and the driver's.
std::size_t ahead_cores() { return std::max<std::size_t>(all_cores(), 3) - 2; }

/// A case's corpus and the working copies of a run on it, as memory.hpp estimates them (0 and 0 for an
/// image file that cannot be read: making it fails at once, with its message).
std::pair<std::uint64_t, std::uint64_t> footprint(const case_spec& spec) {
  try {
    return {footprint_bytes(spec), working_bytes(spec)};
  } catch (const usage_error&) { return {0, 0}; }
}

} // namespace

case_maker::case_maker(std::vector<case_spec> specs, bool ahead)
    : m_specs(std::move(specs)), m_made(m_specs.size()), m_failed(m_specs.size()), m_taken(m_specs.size(), false),
      m_ahead(ahead) {}

case_maker::~case_maker() {
  if (m_next.valid()) m_next.wait(); // its cases are dropped with the rest
}

made_case case_maker::take(std::size_t i) {
  if (i >= m_specs.size() || m_taken[i])
    throw error("case_maker: case " + std::to_string(i) + " of " + std::to_string(m_specs.size()) +
                " taken twice or never planned");
  m_taken[i] = true;
  if (i >= m_end) {
    if (m_next.valid()) {
      m_next.get(); // make() keeps each case's failure with the case
      m_end = m_next_end;
      m_working = m_next_working;
    }
    if (i >= m_end) make_batch(i);
    if (m_ahead) start_ahead();
  }
  // A case made before its turn was made beside others (a batch's first is taken when it is made):
  // if that failed, once more alone, as it would have been made one at a time.
  else if (m_failed[i])
    make(i, i + 1);
  if (m_failed[i]) std::rethrow_exception(std::exchange(m_failed[i], nullptr));
  return std::exchange(m_made[i], {});
}

std::size_t case_maker::batch_end(std::size_t first, std::size_t cores, std::uint64_t beside) const {
  // Each next case while the batch's corpora, with the working copies of the largest run among them,
  // fit in three quarters of the memory available now. The footprints are estimates (12 bytes an
  // element for a corpus where a removal case holds about 9: stream, list, reference and its byte
  // mask, which the case keeps for its records' checks), and the drivers' own memory (staging
  // buffers, a software rasterizer's images) is not in them at all: the quarter left is for those.
  const std::uint64_t have = available_memory() / 4 * 3;
  std::uint64_t held = 0, working = beside;
  std::size_t end = first;
  for (std::size_t i = first; i < m_specs.size() && i - first < cores; ++i) {
    const auto [corpus, copies] = footprint(m_specs[i]);
    if ((i > first || beside > 0) && held + corpus + std::max(working, copies) > have) break;
    held += corpus;
    working = std::max(working, copies);
    end = i + 1;
  }
  return end;
}

void case_maker::make_batch(std::size_t first) {
  m_end = first + 1;
  m_working = 0;
  // The first case must fit beside nothing else, as when cases were made one at a time.
  try {
    check_fits(m_specs[first]);
  } catch (const usage_error& e) {
    m_made[first].why_not = e.what();
    return;
  }
  m_end = batch_end(first, all_cores(), 0);
  for (std::size_t i = first; i < m_end; ++i) m_working = std::max(m_working, footprint(m_specs[i]).second);
  make(first, m_end);
}

void case_maker::start_ahead() {
  const std::size_t first = m_end;
  if (first >= m_specs.size()) return;
  // The batch held now is out of the memory available already; its runs' working copies may not be
  // yet. The next batch is made beside them, or not ahead at all.
  m_next_end = batch_end(first, ahead_cores(), std::max<std::uint64_t>(m_working, 1));
  if (m_next_end == first) return;
  m_next_working = 0;
  for (std::size_t i = first; i < m_next_end; ++i)
    m_next_working = std::max(m_next_working, footprint(m_specs[i]).second);
  m_made_ahead += m_next_end - first;
  const std::size_t end = m_next_end;
  const auto cores = static_cast<int>(ahead_cores()); // of this thread's arena, as the batch's size
  m_next = std::async(std::launch::async, [this, first, end, cores] {
    tbb::task_arena arena(cores);
    arena.execute([&] { make(first, end); });
  });
}

void case_maker::make(std::size_t first, std::size_t end) {
  // One task a case (simple_partitioner, grain 1): each is sequential inside, and none waits behind another.
  const auto one = [&](const tbb::blocked_range<std::size_t>& r) {
    const std::size_t i = r.begin();
    made_case& m = m_made[i];
    m = {};
    m_failed[i] = nullptr;
    try {
      m.c.emplace(prepare_case(generate(m_specs[i])));
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
