#include "device_check.hpp"

#include <algorithm>
#include <string>

#include "dispatch/check.hpp"

namespace winnow::cuda {
namespace {

/// Bitmap words for values 0 … top.
std::size_t bitmap_words(std::uint64_t top) { return static_cast<std::size_t>(top / 32 + 1); }

} // namespace

expected_copy::expected_copy(const workload& w, const std::vector<std::uint32_t>& expected, const case_input* input,
                             cudaStream_t stream)
    : m_n(w.size()), m_count(expected.size()) {
  m_counts.resize(check_counts);
  if (input && kept_set_from_input(*input, stream)) return;
  for (const std::uint32_t v : expected) m_top = std::max(m_top, v);
  m_expected.resize(m_count);
  m_expected.upload(expected.data(), m_count, stream);
}

const unsigned* expected_copy::removed_bits(const workload& w, const case_input* input, cudaStream_t stream) {
  if (w.removals.empty()) return nullptr;
  if (input) return input->removed_bits.get(); // made once a case, as the Redzone pair count reads it
  if (m_removed_bits.size() == 0) {            // the list's indices are below n: prepare checked them
    device_buffer<std::uint32_t> r(w.removals.size());
    r.upload(w.removals.data(), w.removals.size(), stream);
    m_removed_bits = removed_bitmap(r.get(), w.removals.size(), w.size(), stream); // r is done with on return
  }
  return m_removed_bits.get();
}

bool expected_copy::kept_set_from_input(const case_input& input, cudaStream_t stream) {
  // The expected stream is the case's kept elements in input order (reference_compact), and the
  // corpus gives each its index + 1: so it is the ascending list of i + 1 over the kept i, which a
  // bitmap holds. The bitmap is made from the input and removal list already on the device; it
  // stands for the expected stream only where every kept payload is its index + 1 and as many are
  // kept as the host's reference keeps (kept here implies kept there, so the sets are then equal).
  // Otherwise (a stream made by hand, a file) the expected stream is uploaded as before.
  m_expected_bits.resize(bitmap_words(m_n));
  WINNOW_CUDA_CHECK(cudaMemsetAsync(m_expected_bits.get(), 0, m_expected_bits.bytes(), stream));
  WINNOW_CUDA_CHECK(cudaMemsetAsync(m_counts.get(), 0, m_counts.bytes(), stream));
  launch_kept_bits(m_expected_bits.get(), input.data.get(),
                   input.removed_bits.size() ? input.removed_bits.get() : nullptr, m_n, m_counts.get(), stream);
  const std::vector<unsigned long long> counts = m_counts.download(2, stream);
  if (counts[0] != m_count || counts[1] != 0) {
    m_expected_bits = device_buffer<unsigned>();
    return false;
  }
  m_from_input = true;
  m_top = static_cast<std::uint32_t>(m_n);
  m_distinct = true;
  return true;
}

std::optional<bool> expected_copy::matches(const device_result& out, const workload& w, const case_input* input,
                                           bool stable, cudaStream_t stream) {
  if (out.count != m_count) return false;
  check_args a;
  a.out = out.values;
  a.count = out.count;
  a.words = out.words;
  if (stable && m_from_input) {
    a.expected_bits = m_expected_bits.get();
    a.top = m_top;
    a.ascending = true;
  } else if (stable) {
    a.expected = m_expected.get();
  } else {
    // The bitmap is as large as the largest value (verify.cpp's byte_map_fits): the corpus's payloads
    // are index + 1, so no larger than the input; a case with larger values is checked on the host.
    if (std::uint64_t{m_top} > 4 * std::uint64_t{std::max(m_n, m_count)} + 64) return std::nullopt;
    if (!m_distinct) {
      m_expected_bits.resize(bitmap_words(m_top));
      WINNOW_CUDA_CHECK(cudaMemsetAsync(m_expected_bits.get(), 0, m_expected_bits.bytes(), stream));
      WINNOW_CUDA_CHECK(cudaMemsetAsync(m_counts.get(), 0, m_counts.bytes(), stream));
      launch_set_bits(m_expected_bits.get(), m_expected.get(), m_count, m_counts.get(), stream);
      m_distinct = m_counts.download(1, stream)[0] == 0;
    }
    if (!*m_distinct) return std::nullopt; // repeats in the expected stream: a multiset, not a set
    if (m_seen_bits.size() == 0) m_seen_bits.resize(bitmap_words(m_top));
    WINNOW_CUDA_CHECK(cudaMemsetAsync(m_seen_bits.get(), 0, m_seen_bits.bytes(), stream));
    a.expected_bits = m_expected_bits.get();
    a.seen_bits = m_seen_bits.get();
    a.top = m_top;
  }
  if (out.input_after) {
    if (!input && !m_input_uploaded) {
      m_input.resize(m_n);
      m_input.upload(w.data.data(), m_n, stream);
      m_input_uploaded = true;
    }
    a.input_after = out.input_after;
    a.pristine = input ? input->data.get() : m_input.get();
    a.removed_bits = removed_bits(w, input, stream);
    a.n = m_n;
  }
  a.zeros_to = std::max(out.zeros_to, out.count);
  WINNOW_CUDA_CHECK(cudaMemsetAsync(m_counts.get(), 0, m_counts.bytes(), stream));
  launch_check(a, m_counts.get(), stream);
  const std::vector<unsigned long long> counts = m_counts.download(check_counts, stream);
  return std::all_of(counts.begin(), counts.end(), [](unsigned long long c) { return c == 0; });
}

} // namespace winnow::cuda
