#include "device_check.hpp"

#include <algorithm>
#include <limits>
#include <memory>

#include "winnow/error.hpp"
#include "winnow/vulkan/device.hpp"
#include "winnow/vulkan/executor.hpp"
#include "winnow/vulkan/pipeline.hpp"
#include "winnow/vulkan/sequence.hpp"

namespace winnow::vk {
namespace {

/// check.comp's flag words, set_bits.comp's repeat flag in the first; and its mode bits.
constexpr std::uint32_t flag_words = 3;
constexpr std::uint32_t mode_stable = 1, mode_input = 2, mode_removals = 4, mode_stacks = 8;

/// The push constants of shaders/check.comp and shaders/set_bits.comp.
struct check_args {
  VkDeviceAddress out = 0, expected = 0, expected_bits = 0, seen_bits = 0, input_after = 0, pristine = 0,
                  removed_bits = 0, flags = 0;
  std::uint32_t count = 0, words = 1, top = 0, n = 0, mode = 0, log2w = 0;
};
struct set_bits_args {
  VkDeviceAddress values, bits, repeats;
  std::uint32_t count, limit;
};

/// A bitmap of the values 0 … top.
std::uint64_t bitmap_bytes(std::uint64_t top) { return 4 * (top / 32 + 1); }

void zero(sequence& s, const buffer& b) { vkCmdFillBuffer(s.cmd(), b.handle(), 0, VK_WHOLE_SIZE, 0); }

/// Records: bit v of `bits` for each of the `count` values v of `values` up to `limit` (those past it
/// mark nothing, as removed_mask on the host), and `repeats` word 0 set where a bit was set already.
void record_set_bits(sequence& s, const buffer& values, std::uint64_t count, const buffer& bits, const buffer& repeats,
                     std::uint32_t limit) {
  if (count == 0) return;
  const pipeline& p = pipeline::get({"set_bits", {default_local_size()}});
  s.dispatch(
      p, set_bits_args{values.address(), bits.address(), repeats.address(), static_cast<std::uint32_t>(count), limit},
      (count + p.local_size() - 1) / p.local_size());
}

/// Submits what `s` recorded with a copy of `flags` into the mapped `read` after it, waits, and
/// returns the flags.
std::vector<std::uint32_t> read_flags(sequence& s, const buffer& flags, const buffer& read) {
  s.host_barrier();
  const VkBufferCopy region{0, 0, flags.size()};
  vkCmdCopyBuffer(s.cmd(), flags.handle(), read.handle(), 1, &region);
  s.host_barrier();
  s.submit_and_wait();
  device::get().check("winnow::vk: the device check");
  return read.mapped_words(flag_words);
}

} // namespace

expected_copy::expected_copy(const workload& w, const std::vector<std::uint32_t>& expected, const case_input& input)
    : m_n(w.size()), m_count(expected.size()), m_removals(!w.removals.empty()),
      m_expected("device check: expected stream", 4 * m_count), m_flags("device check: flags", 4 * flag_words),
      m_flags_read("device check: flags read back", 4 * flag_words, true) {
  for (const std::uint32_t v : expected) m_top = std::max(m_top, v);
  m_expected.upload(expected);
  if (!m_removals) return;
  m_removed_bits = buffer("device check: removed indices", bitmap_bytes(m_n));
  sequence& s = transfer_sequence();
  s.begin();
  zero(s, m_removed_bits);
  zero(s, m_flags);
  s.barrier();
  record_set_bits(s, input.removals, w.removals.size(), m_removed_bits, m_flags,
                  m_n ? static_cast<std::uint32_t>(m_n - 1) : 0);
  (void)read_flags(s, m_flags, m_flags_read); // a removal list may repeat an index
}

std::optional<bool> expected_copy::matches(const device_result& out, const case_input& input, bool stable) {
  if (out.count != m_count) return false;
  // 32-bit indices in the shader (a stack's position lies within 8 rows past the count's).
  constexpr std::uint64_t most = std::numeric_limits<std::uint32_t>::max() / 2;
  if (out.words == 0 || m_count * out.words > most || m_n * out.words > most) return std::nullopt;
  check_args a;
  a.out = out.values;
  a.count = static_cast<std::uint32_t>(m_count);
  a.words = out.words;
  a.flags = m_flags.address();
  if (out.stacks_log2_width) {
    a.mode |= mode_stacks;
    a.log2w = *out.stacks_log2_width;
  }
  sequence& s = transfer_sequence();
  if (stable) {
    a.mode |= mode_stable;
    a.expected = m_expected.address();
  } else {
    // The bitmap is as large as the largest value (verify.cpp's byte_map_fits): the corpus's payloads
    // are index + 1, no larger than the input; a case with larger values is checked on the host.
    if (std::uint64_t{m_top} > 4 * std::max(m_n, m_count) + 64) return std::nullopt;
    if (!m_distinct) {
      m_expected_bits = buffer("device check: expected values", bitmap_bytes(m_top));
      m_seen_bits = buffer("device check: values seen", bitmap_bytes(m_top));
      s.begin();
      zero(s, m_expected_bits);
      zero(s, m_flags);
      s.barrier();
      record_set_bits(s, m_expected, m_count, m_expected_bits, m_flags, m_top);
      m_distinct = read_flags(s, m_flags, m_flags_read)[0] == 0;
    }
    if (!*m_distinct) return std::nullopt; // repeats in the expected stream: a multiset, not a set
    a.expected_bits = m_expected_bits.address();
    a.seen_bits = m_seen_bits.address();
    a.top = m_top;
  }
  if (out.input_after) {
    a.mode |= mode_input | (m_removals ? mode_removals : 0);
    a.input_after = out.input_after;
    a.pristine = input.data.address();
    a.removed_bits = m_removed_bits.address();
    a.n = static_cast<std::uint32_t>(m_n);
  }
  s.begin();
  zero(s, m_flags);
  if (!stable) zero(s, m_seen_bits);
  s.barrier();
  const std::uint64_t items = std::max<std::uint64_t>(a.count, a.n);
  if (items) {
    const pipeline& p = pipeline::get({"check", {default_local_size()}});
    s.dispatch(p, a, (items + p.local_size() - 1) / p.local_size());
  }
  const std::vector<std::uint32_t> flags = read_flags(s, m_flags, m_flags_read);
  return std::all_of(flags.begin(), flags.end(), [](std::uint32_t f) { return f == 0; });
}

std::optional<bool> matches_on_device(const expected_output& expected, bool stable, const device_result& out) {
  if (out.count != expected.values.size()) return false;
  const case_input* input = shared_input(&expected.copies, expected.w.data, expected.w.removals);
  if (!input) return std::nullopt;
  try {
    expected_copy& copy = expected.copies.get<expected_copy>(
        "vk expected", [&] { return std::make_unique<expected_copy>(expected.w, expected.values, *input); });
    return copy.matches(out, *input, stable);
  } catch (const unavailable&) {
    return std::nullopt; // no room on the device beside the run's buffers (buffer's message): the host checks
  }
}

} // namespace winnow::vk
