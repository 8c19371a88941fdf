#pragma once
// The dispatch layer of kernels/redzone.cu: Bontes & Gain 2024, Algorithms 1-3. Host-callable
// functions that size and launch the kernels (CUB's device → dispatch → agent); every pointer is a
// device pointer (d_ prefix), every launch goes to `stream` and is checked.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace winnow::cuda {

/// Device state of one Redzone run. counts/created: 2 per batch (source, destination orphans);
/// prefix: 2 × (batches + 1) exclusive sums (J then K); stats: [0] zone marks, [1] status
/// (0 ok, else the orphan totals disagreed); done: the last-block-done counter (0 between runs).
struct redzone_state {
  std::uint32_t* a = nullptr;
  std::uint32_t* r = nullptr;
  std::size_t n = 0, k = 0;
  std::uint32_t* counts = nullptr;
  std::uint32_t* created = nullptr;
  std::uint32_t* prefix = nullptr;
  unsigned long long* stats = nullptr;
  unsigned* done = nullptr;
};

struct redzone2_config {
  std::size_t batch = 0;   ///< s: items of R per batch (one block per batch)
  std::size_t batches = 0; ///< |P| = ceil(k / s)
  bool early = false;      ///< §6: pair source and destination orphans inside the block in phase 2
  bool shared = false;     ///< §6: keep orphans in shared memory, flush them once
  bool prefetch = false;   ///< §6: load the next tile of R and Z before working on this one
  unsigned orphan_blocks = 1;
};

/// Temporary bytes for ordering k indices by their bits [begin_bit, end_bit) (kernels/redzone_order.cu).
[[nodiscard]] std::size_t redzone_order_bytes(std::size_t k, int begin_bit, int end_bit);
/// d_out = R ordered by the bits [begin_bit, end_bit) of each index (a radix sort over those bits
/// only): the fill then writes the holes bucket by bucket, or in address order when all bits are sorted.
void redzone_order(void* d_temp, std::size_t temp_bytes, const std::uint32_t* d_r, std::uint32_t* d_out, std::size_t k,
                   int begin_bit, int end_bit, cudaStream_t stream);
/// The sizes of order=bitmap (kernels/redzone_bitmap.cu) for n and k on this device.
struct redzone_bitmap_plan {
  unsigned shift = 0;    ///< buckets of 2^shift indices
  unsigned buckets = 0;  ///< ceil(n / 2^shift)
  unsigned parts = 0;    ///< blocks of the count and scatter kernels, each over a slice of R
  std::size_t chunk = 0; ///< entries of R per slice
  unsigned fill_blocks = 0;
  std::size_t slots_per_block = 0; ///< red-zone slots per fill block (whole tiles)
  std::size_t scan_bytes = 0;      ///< cub::DeviceScan's temporary storage, rounded up
  std::size_t counts_bytes = 0;    ///< the bucket × block counts, rounded up
  std::size_t temp_bytes = 0;      ///< all temporary storage: scan, counts, bucketed R
};
[[nodiscard]] redzone_bitmap_plan redzone_bitmap_plan_for(std::size_t n, std::size_t k);
/// d_sorted = R in ascending order, through buckets by high bits and a shared-memory bitmap per
/// bucket; d_status[1] = 1 where R holds an index twice. d_temp holds plan.temp_bytes.
void redzone_bitmap_order(const redzone_bitmap_plan& p, void* d_temp, const std::uint32_t* d_r, std::size_t k,
                          std::uint32_t* d_sorted, unsigned long long* d_status, cudaStream_t stream);
/// The fill of order=bitmap: the j-th kept red-zone item to the j-th hole of sorted R, in place,
/// without marks or orphans; s.stats[0] = R's zone entries (Lemma 4.1's count).
void redzone_bitmap_fill(const redzone_state& s, const redzone_bitmap_plan& p, const std::uint32_t* d_sorted,
                         cudaStream_t stream);
/// Blocks of the fill kernel that fit on one SM (for sizing |P|).
[[nodiscard]] int redzone2_fill_occupancy(const redzone2_config& c);
/// Phase 1 over the whole GPU (`blocks` blocks of tuning::stream_block) or on one block of 1024.
void redzone_mark(const redzone_state& s, unsigned blocks, bool single_block, cudaStream_t stream);
/// Phase 2 of Algorithm 2: one block per batch; the last block to finish scans the orphan counts.
void redzone2_fill(const redzone_state& s, const redzone2_config& c, cudaStream_t stream);
/// Phase 3 with Algorithm 3's load balancing.
void redzone2_orphans(const redzone_state& s, const redzone2_config& c, cudaStream_t stream);
/// Algorithm 1 on one block of 1024 threads: phase 2 and phase 3.
void redzone1_fill(const redzone_state& s, cudaStream_t stream);
void redzone1_orphans(const redzone_state& s, cudaStream_t stream);

/// The traffic model's pair counts of a removal list (redzone_pairs.hpp) added to d_counts[0 … 3]
/// (zone, hole_kept, hole_removed, zone_kept): R[i] of d_r (k of them) paired with item z + i,
/// d_removed_bits holding bit j for each j in R.
void redzone_pairs_counts(const std::uint32_t* d_r, std::size_t k, std::size_t z, const unsigned* d_removed_bits,
                          unsigned long long* d_counts, cudaStream_t stream);

} // namespace winnow::cuda
