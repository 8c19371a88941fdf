#pragma once
// The check of a cuda result where it lies (cuda_algorithm::matches_on_device): the same verdict as
// winnow::verify's on the host — stable results element by element, unstable ones as a set, the count
// apart, an out-of-place input unchanged but for payload 0 at removed indices, no element torn apart —
// from a few counters read back instead of the output. The case's expected stream goes to the device
// once (expected_copy) and serves every record of the case. It does not know the algorithm under
// test: it reads only where the run says its result lies (device_result). Where the case's input is
// on the device and follows the corpus's rule (each kept payload its index + 1), the expected stream
// is not uploaded at all: a bitmap made there from the input stands for it (kept_set_from_input).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "buffer.hpp"
#include "case_input.hpp"
#include "winnow/workload.hpp"

namespace winnow::cuda {

/// Where a run left its result on the device (cuda_algorithm::output): what result() reads back and
/// the device check reads in place.
struct device_result {
  const char* who = "";                  ///< the algorithm, for messages ("winnow::cuda::lookback")
  const std::uint32_t* values = nullptr; ///< the compacted stream: `count` elements of `words` words
  std::size_t count = 0;
  unsigned words = 1;
  const std::uint32_t* input_after = nullptr; ///< out of place: the input after the run (`words` per element)
  std::size_t zeros_to = 0;                   ///< positions count … zeros_to − 1 of `values` must hold 0
};

/// One case's expected output (and its input, for out-of-place runs) on the device, made by its first
/// record that checks there and kept for the others (winnow::device_copies). The input and the set
/// bitmaps are uploaded and made when first needed.
class expected_copy {
public:
  /// `input`: the case's input on the device, whose removed-index bitmap the check reads (nullptr: it
  /// makes its own from `w`'s list when an out-of-place run needs one).
  expected_copy(const workload& w, const std::vector<std::uint32_t>& expected, const case_input* input,
                cudaStream_t stream);

  /// Whether `out` is what the case expects (see the header's comment); nullopt where the device
  /// cannot tell: an unstable result whose expected values repeat or are too large for a bitmap.
  /// `w` is the case the copy was made for; `input`, its input on the device where the case shares
  /// one (nullptr: the check uploads its own when an out-of-place run needs it).
  [[nodiscard]] std::optional<bool> matches(const device_result& out, const workload& w, const case_input* input,
                                            bool stable, cudaStream_t stream);

  /// Whether the check stands on a bitmap made from the case's input instead of the expected stream.
  [[nodiscard]] bool from_input() const { return m_from_input; }

private:
  /// Makes m_expected_bits from the case's input on the device; true where it stands for the
  /// expected stream (see the definition), false (nothing kept) where the stream must be uploaded.
  bool kept_set_from_input(const case_input& input, cudaStream_t stream);
  /// The case's removed-index bitmap: the shared input's where there is one, else made here on first
  /// need from `w`'s list; nullptr without a list.
  const unsigned* removed_bits(const workload& w, const case_input* input, cudaStream_t stream);

  std::size_t m_n;                         ///< the input's size
  std::size_t m_count;                     ///< the expected stream's
  std::uint32_t m_top = 0;                 ///< the largest expected value
  device_buffer<std::uint32_t> m_expected; ///< the expected stream (not made where m_from_input)
  bool m_from_input = false;               ///< m_expected_bits, made from the input, stands for the stream
  /// The input as generated, for out-of-place runs where the case shares none: never the algorithm's.
  device_buffer<std::uint32_t> m_input;
  bool m_input_uploaded = false;
  std::optional<bool> m_distinct; ///< set with the bitmaps: the expected values are distinct
  device_buffer<unsigned> m_expected_bits, m_seen_bits, m_removed_bits; ///< m_removed_bits: without a shared input
  device_buffer<unsigned long long> m_counts;
};

} // namespace winnow::cuda
