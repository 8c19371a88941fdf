#pragma once
// The web build's sequential tbb::parallel_reduce: blocked_range.h says why.
#include "tbb/blocked_range.h"

namespace tbb {

/// body(range, identity) once for the whole range; identity for an empty one. The reduction is not
/// needed: there is only one part.
template <class Value, class Result, class Body, class Reduction>
Result parallel_reduce(const blocked_range<Value>& range, const Result& identity, const Body& body, const Reduction&) {
  return range.empty() ? identity : body(range, identity);
}

} // namespace tbb
