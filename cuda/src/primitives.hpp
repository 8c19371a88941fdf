#pragma once
// The primitives Billeter et al. build from their compaction and time beside it: the prefix sum of the
// element values (§5.2, Table 4) and a radix sort by one stream split per key bit (§5.3, Table 5).
// `winnow calibrate --api cuda` times them against CUB's (primitives.cpp); the report lines them up
// with the paper's tables.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "buffer.hpp"
#include "dispatch/billeter.hpp"
#include "winnow/registry.hpp"

namespace winnow::cuda {

/// The next value of the splitmix64 sequence whose state is x (advanced): the calibrate step's test data.
[[nodiscard]] std::uint64_t splitmix64(std::uint64_t& x);

/// The low 32 bits of the first n values of the splitmix64 sequence from state `seed`, each modulo
/// `below` unless it is 0: the values n calls of splitmix64 give in turn, made on all cores (the
/// sequence's i-th state is seed + (i + 1) × its constant).
[[nodiscard]] std::vector<std::uint32_t> splitmix64_values(std::size_t n, std::uint64_t seed, std::uint32_t below = 0);

/// The first index at which `got` and `want` differ (on all cores), or want.size() where the first
/// want.size() elements of `got` (at least as many) are equal.
[[nodiscard]] std::size_t first_difference(const std::vector<std::uint32_t>& got,
                                           const std::vector<std::uint32_t>& want);

/// One whole-stream count / scan of Billeter's scheme for n elements of `words` words: P virtual
/// processors (warps) as cuda/billeter sizes them, their sums or counts and offsets.
class billeter_pass {
public:
  billeter_pass(std::size_t n, unsigned words);
  [[nodiscard]] billeter_state state(const void* d_in, void* d_out) const;
  [[nodiscard]] const billeter_config& config() const { return m_cfg; }
  [[nodiscard]] std::size_t size() const { return m_n; }

private:
  std::size_t m_n;
  billeter_config m_cfg;
  device_buffer<std::uint32_t> m_counts, m_offsets;
  device_buffer<unsigned long long> m_chunk, m_total;
};

/// Billeter's exclusive prefix sum of n 32-bit values (modulo 2^32) by count / scan / prefix.
class value_prefix_sum {
public:
  explicit value_prefix_sum(std::size_t n) : m_pass(n, 1) {}
  /// d_out[i] = d_in[0] + … + d_in[i − 1]; d_out may be d_in. Three launches on `stream`.
  void run(const std::uint32_t* d_in, std::uint32_t* d_out, cudaStream_t stream) const;

private:
  billeter_pass m_pass;
};

/// §5.3's radix sort: one stream split per key bit, from the lowest (LSD, so stable), on n elements of
/// `words` 32-bit words (1, 2 or 4: a key, or a key and a 32- or 96-bit value interleaved) whose word 0
/// is the key. Count, scan and split per bit, three launches each.
class split_radix_sort {
public:
  split_radix_sort(std::size_t n, unsigned words) : m_pass(n, words) {}
  /// Sorts d_a by the low `bits` bits of its keys, d_b (as large) as scratch; the result is in d_a.
  void run(void* d_a, void* d_b, unsigned bits, cudaStream_t stream) const;

private:
  billeter_pass m_pass;
};

/// Table 4's measurements: Billeter's prefix sum and cub::DeviceScan::ExclusiveSum at 32M out of
/// place and in place and at 220M in place (skipped, with a line on stderr, where the device lacks
/// the memory); each first checked against the CPU's sum (a
/// mismatch throws winnow::error), then timed; and Table 5's: §5.3's radix sort of 4M keys, keys with
/// 32-bit values (interleaved and in separate arrays) and keys with 96-bit values, against
/// cub::DeviceRadixSort where it sorts the same (keys; separate arrays), each checked against
/// std::stable_sort first.
[[nodiscard]] std::vector<calibration> primitives();

} // namespace winnow::cuda
