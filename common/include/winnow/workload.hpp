#pragma once
/// A workload is one generated case: the stream and its removal list, ready for any backend.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace winnow {

/// Payload 0 is invalid (dropped); every valid payload is its index + 1, so it is non-zero, unique
/// and tells where it came from.
struct workload {
  std::string spec;                    ///< canonical case spec (corpus.hpp), as printed in records
  std::vector<std::uint32_t> data;     ///< the stream; for removal cases every payload is non-zero
  std::vector<std::uint32_t> removals; ///< indices to remove: unique, shuffled (MT19937, case seed)
  bool removal_list = false;           ///< true for `removal:` cases: `data` carries no marks
  std::size_t width = 0;               ///< natural row width for images (0: none), for `winnow corpus`
  /// Redzone §4.6 (add and remove in one operation): the last `gains` elements of `data` are new
  /// elements G appended after the array A of size() − gains; `removals` index A only. An algorithm
  /// that does not append them itself sees one stream A + G.
  std::size_t gains = 0;

  [[nodiscard]] std::size_t size() const { return data.size(); }
  /// Number of elements that survive compaction.
  [[nodiscard]] std::size_t kept() const { return data.size() - removals.size(); }
  /// The stream with payload 0 at every removed index: what a predicate algorithm sees after `mark`.
  [[nodiscard]] std::vector<std::uint32_t> marked() const;
  /// The preserve list P: the indices that survive (the complement of R), in a random order as R's
  /// is (Fisher-Yates on MT19937 with a fixed seed, the same on every machine). O(n) to build.
  [[nodiscard]] std::vector<std::uint32_t> preserved() const;
};

/// Whether every element's payload is its index + 1 (data[i] == i + 1 for all i): a removal case as
/// generated, whose stream a device can then make in place instead of copying it from the host
/// (cuda's case_input: a 2^29-element stream took 0.85 s to upload from pageable memory). A pass over
/// the stream on all cores; false for any stream a test or a file made otherwise.
[[nodiscard]] bool payloads_are_indices(const workload& w);

} // namespace winnow
