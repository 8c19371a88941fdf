#pragma once
// The web build's stand-in for oneTBB (common/CMakeLists.txt puts common/src/web first on its include
// path; native builds never see it): Emscripten has no oneTBB, and the page's wasm runs on one thread.
// It holds what common's sources use of tbb::blocked_range, tbb::parallel_for and tbb::parallel_reduce,
// run in order on the calling thread: the same results, as the parallel code's are by construction
// (its chunks are independent, its reductions associative).
#include <cstddef>

namespace tbb {

template <class Value> class blocked_range {
public:
  blocked_range(Value begin, Value end, std::size_t = 1) : m_begin(begin), m_end(end) {}
  [[nodiscard]] Value begin() const { return m_begin; }
  [[nodiscard]] Value end() const { return m_end; }
  [[nodiscard]] bool empty() const { return !(m_begin < m_end); }

private:
  Value m_begin, m_end;
};

} // namespace tbb
