#pragma once
// The web build's sequential tbb::parallel_for: blocked_range.h says why.
#include "tbb/blocked_range.h"

namespace tbb {

/// f(i) for every i in [first, last), in order.
template <class Index, class Function> void parallel_for(Index first, Index last, const Function& f) {
  for (Index i = first; i < last; ++i) f(i);
}

/// body(range) once for the whole range (nothing for an empty one).
template <class Value, class Body> void parallel_for(const blocked_range<Value>& range, const Body& body) {
  if (!range.empty()) body(range);
}

} // namespace tbb
