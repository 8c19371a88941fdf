#pragma once
// The dispatch layer of kernels/check.cu: the check of a result where it lies (device_check.hpp says
// what it decides). Every pointer is a device pointer (d_ prefix), every launch goes to `stream` and
// is checked.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace winnow::cuda {

/// Sets bit v of `d_bits` for every value v of `d_values` (n of them, each below 32 × the bitmap's
/// words), and adds to `d_repeats` 1 for each value whose bit was already set.
void launch_set_bits(unsigned* d_bits, const std::uint32_t* d_values, std::size_t n, unsigned long long* d_repeats,
                     cudaStream_t stream);

/// The bitmap of the values a case keeps when every kept element's payload is its index + 1 (the
/// corpus's rule, workload.hpp): bit i + 1 of `d_bits` (zeroed, n / 32 + 1 words) for each kept index
/// i of `d_data`'s n; kept means not in `d_removed_bits` (nullptr: not payload 0). Adds to
/// d_counts[0] the number kept and to d_counts[1] the kept elements whose payload is not index + 1.
void launch_kept_bits(unsigned* d_bits, const std::uint32_t* d_data, const unsigned* d_removed_bits, std::size_t n,
                      unsigned long long* d_counts, cudaStream_t stream);

/// What a result is checked against, and where.
struct check_args {
  const std::uint32_t* out = nullptr; ///< the compacted stream: `count` elements of `words` words
  std::size_t count = 0;
  unsigned words = 1;
  /// Stable: the expected stream, compared element by element (as many as `count`).
  const std::uint32_t* expected = nullptr;
  /// Unstable (expected == nullptr): the expected values' bitmap, values up to `top`, and a zeroed
  /// bitmap as large, in which each output value sets its bit (set twice: a duplicate).
  const unsigned* expected_bits = nullptr;
  unsigned* seen_bits = nullptr;
  std::uint32_t top = 0;
  /// Stable with a bitmap (expected == nullptr, seen_bits unused): each value expected and larger
  /// than the one before it, which with the count means the expected values in ascending order.
  bool ascending = false;
  /// Out of place: the input after the run (`words` per element, payload first), the input as
  /// generated, and the bitmap of the removal list's indices (nullptr: none), n elements.
  const std::uint32_t* input_after = nullptr;
  const std::uint32_t* pristine = nullptr;
  const unsigned* removed_bits = nullptr;
  std::size_t n = 0;
  /// Positions count … zeros_to − 1 of `out` must hold 0 (billeter_split's invalid elements).
  std::size_t zeros_to = 0;
};

/// What the check counted (check_counts' words, in order).
enum check_count : unsigned {
  wrong_values,   ///< output elements not expected there (stable), or not expected or seen twice (unstable)
  torn_elements,  ///< output elements a word of which is not widen_word of its payload
  changed_inputs, ///< input elements changed other than by payload 0 at a removed index
  nonzero_tail,   ///< positions after the count that are not 0
  check_counts
};

/// Adds what differs into d_counts[check_counts] (zeroed by the caller).
void launch_check(const check_args& a, unsigned long long* d_counts, cudaStream_t stream);

} // namespace winnow::cuda
