// The check of a result on the device (device_check.cpp): one pass over the output (and an
// out-of-place input) counting what differs from the expected stream, so that a record reads back a
// few counters instead of its output. Each thread counts in registers and adds its counts once.
#include "../check.hpp"
#include "../dispatch/check.hpp"
#include "../dispatch/mark.hpp"
#include "block.cuh"
#include "launch.cuh"

namespace winnow::cuda {
namespace {

using detail::global_thread;
using detail::grid_threads;

__device__ bool bit_of(const unsigned* bits, std::uint32_t v) { return (bits[v >> 5] >> (v & 31)) & 1u; }

__global__ void set_bits_kernel(unsigned* __restrict__ bits, const std::uint32_t* __restrict__ values, std::size_t n,
                                unsigned long long* repeats) {
  unsigned long long mine = 0;
  for (std::size_t i = global_thread(); i < n; i += grid_threads()) {
    const std::uint32_t v = values[i];
    const unsigned bit = 1u << (v & 31);
    mine += (atomicOr(bits + (v >> 5), bit) & bit) != 0;
  }
  if (mine) atomicAdd(repeats, mine);
}

// One warp a 32 indices: their kept flags in a ballot, whose bits are values base + 1 … base + 32, so
// they straddle two bitmap words (base is a multiple of 32: the block is a multiple of a warp).
__global__ void kept_bits_kernel(unsigned* __restrict__ bits, const std::uint32_t* __restrict__ data,
                                 const unsigned* __restrict__ removed_bits, std::size_t n, unsigned long long* counts) {
  unsigned long long kept_count = 0, wrong = 0;
  const unsigned lane = detail::lane_id();
  for (std::size_t i = global_thread(); i - lane < n; i += grid_threads()) {
    const std::uint32_t d = i < n ? data[i] : 0u;
    const bool kept = i < n && (removed_bits ? !bit_of(removed_bits, static_cast<std::uint32_t>(i)) : d != 0);
    wrong += kept && d != static_cast<std::uint32_t>(i + 1);
    const unsigned ballot = __ballot_sync(0xffffffffu, kept);
    if (lane == 0 && ballot) {
      const std::size_t word = (i - lane) >> 5;
      if (ballot << 1) atomicOr(bits + word, ballot << 1);
      if (ballot >> 31) atomicOr(bits + word + 1, ballot >> 31);
      kept_count += static_cast<unsigned>(__popc(ballot));
    }
  }
  if (kept_count) atomicAdd(counts, kept_count);
  if (wrong) atomicAdd(counts + 1, wrong);
}

__global__ void check_kernel(check_args a, unsigned long long* counts) {
  unsigned long long wrong = 0, torn = 0, changed = 0, tail = 0;
  for (std::size_t i = global_thread(); i < a.count; i += grid_threads()) {
    const std::uint32_t v = a.out[i * a.words];
    for (unsigned w = 1; w < a.words; ++w) torn += a.out[i * a.words + w] != widen_word(v, w);
    if (a.expected) {
      wrong += v != a.expected[i];
    } else if (v > a.top || !bit_of(a.expected_bits, v)) {
      ++wrong; // never expected
    } else if (a.ascending) {
      wrong += i > 0 && a.out[(i - 1) * a.words] >= v; // out of order, or a duplicate
    } else {
      const unsigned bit = 1u << (v & 31);
      wrong += (atomicOr(a.seen_bits + (v >> 5), bit) & bit) != 0; // a duplicate
    }
  }
  if (a.input_after)
    for (std::size_t i = global_thread(); i < a.n; i += grid_threads()) {
      const std::uint32_t after = a.input_after[i * a.words];
      const bool removed = a.removed_bits && bit_of(a.removed_bits, static_cast<std::uint32_t>(i));
      changed += after != a.pristine[i] && !(after == 0 && removed); // a mark phase may write payload 0 there
    }
  for (std::size_t i = a.count + global_thread(); i < a.zeros_to; i += grid_threads()) tail += a.out[i] != 0;
  if (wrong) atomicAdd(counts + wrong_values, wrong);
  if (torn) atomicAdd(counts + torn_elements, torn);
  if (changed) atomicAdd(counts + changed_inputs, changed);
  if (tail) atomicAdd(counts + nonzero_tail, tail);
}

} // namespace

void launch_set_bits(unsigned* d_bits, const std::uint32_t* d_values, std::size_t n, unsigned long long* d_repeats,
                     cudaStream_t stream) {
  if (n == 0) return;
  set_bits_kernel<<<detail::stream_grid(n), tuning::stream_block, 0, stream>>>(d_bits, d_values, n, d_repeats);
  check_launch("winnow::cuda::set_bits_kernel", stream);
}

void launch_kept_bits(unsigned* d_bits, const std::uint32_t* d_data, const unsigned* d_removed_bits, std::size_t n,
                      unsigned long long* d_counts, cudaStream_t stream) {
  if (n == 0) return;
  kept_bits_kernel<<<detail::stream_grid(n), tuning::stream_block, 0, stream>>>(d_bits, d_data, d_removed_bits, n,
                                                                                d_counts);
  check_launch("winnow::cuda::kept_bits_kernel", stream);
}

void launch_check(const check_args& a, unsigned long long* d_counts, cudaStream_t stream) {
  const std::size_t items = std::max({a.count, a.input_after ? a.n : 0, a.zeros_to});
  if (items == 0) return;
  check_kernel<<<detail::stream_grid(items), tuning::stream_block, 0, stream>>>(a, d_counts);
  check_launch("winnow::cuda::check_kernel", stream);
}

} // namespace winnow::cuda
