#pragma once
// The CIS 565 write-up's three scans of a whole array, sized once for n 32-bit values: Hillis-Steele
// (one kernel per doubling offset, ping-pong through a second array), Blelloch (an up/down sweep per
// block in shared memory, recursively over the block totals) and thrust::exclusive_scan. cuda/scan_*
// run one as the `scan` phase of their compaction (scan.cpp); `winnow calibrate --api cuda` times each
// alone over the write-up's sizes and block sizes (cis565_scans.cpp).
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "buffer.hpp"
#include "dispatch/thrust.hpp"
#include "winnow/algorithm.hpp"

namespace winnow::cuda {

enum class scan_kind { hillis, blelloch, thrust };

class global_scan {
public:
  /// block: threads per block (a power of two, 32 … 1024; ignored by thrust). Allocates everything a
  /// run needs, thrust's temporary storage included (one untimed call on `stream`).
  global_scan(scan_kind kind, std::size_t n, unsigned block, cudaStream_t stream);

  /// Scans the n values of d_data and returns where the sums are: inclusive sums for Hillis-Steele,
  /// exclusive ones otherwise. d_data is overwritten (Blelloch scans in place; Hillis-Steele
  /// ping-pongs through it), so its values are gone afterwards.
  const std::uint32_t* run(std::uint32_t* d_data, cudaStream_t stream);
  [[nodiscard]] bool inclusive() const { return m_kind == scan_kind::hillis; }
  /// Kernels (or library calls) one run launches.
  [[nodiscard]] std::uint64_t launches() const;
  /// Bytes one run reads and writes: the traffic model of its kernels.
  [[nodiscard]] traffic bytes() const;

private:
  scan_kind m_kind;
  std::size_t m_n;
  unsigned m_block;
  std::size_t m_passes = 0; // Hillis-Steele: ceil(log2 n)
  device_buffer<std::uint32_t> m_ping;
  std::vector<device_buffer<std::uint32_t>> m_levels; // Blelloch: the block totals of each level
  thrust_arena m_arena;
  device_buffer<char> m_arena_memory;
};

} // namespace winnow::cuda
