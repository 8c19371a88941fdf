#pragma once
// The dispatch layer (CUB's device → dispatch → agent): host-callable functions that size and
// launch the kernels of kernels/*.cu. Host code (the algorithms' entry points) includes only this
// header, so it stays free of CUDA syntax. Every pointer is a device pointer (d_ prefix); every
// launch goes to `stream` and is checked.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace winnow::cuda {

// ---- mark.cu: the marking phase and small maps shared by many algorithms ----------------------

/// Writes payload 0 into word 0 of element d_r[i] (elements of `words` 32-bit words), i < k.
void launch_mark(std::uint32_t* d_a, unsigned words, const std::uint32_t* d_r, std::size_t k, cudaStream_t stream);
/// Writes flag 0 at every index of R.
void launch_mark_flags(std::uint8_t* d_flags, const std::uint32_t* d_r, std::size_t k, cudaStream_t stream);
/// flags[i] = a[i] != 0.
void launch_flags(std::uint8_t* d_flags, const std::uint32_t* d_a, std::size_t n, cudaStream_t stream);
/// Widens 32-bit payloads into elements of `words` words: word 0 is the payload, word w > 0 holds
/// widen_word(payload, w), so a result can be checked for elements torn apart.
void launch_widen(std::uint32_t* d_wide, unsigned words, const std::uint32_t* d_payload, std::size_t n,
                  cudaStream_t stream);
/// The filler of word w of a widened element (host and device agree on it).
[[nodiscard]] constexpr std::uint32_t widen_word(std::uint32_t payload, unsigned w) {
  return payload == 0 ? 0u : (payload * 0x9E3779B1u) ^ (0x01000193u * w);
}

// ---- redzone.cu: Bontes & Gain 2024, Algorithms 1-3 --------------------------------------------

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

// ---- single_pass.cu: the paper's single-block O(n) competitor ----------------------------------

/// Marks R on one block of 1024 threads.
void single_pass_mark(std::uint32_t* d_a, const std::uint32_t* d_r, std::size_t k, cudaStream_t stream);
/// Stable in-place compaction on one block; the count goes to *d_count.
void single_pass_move(std::uint32_t* d_a, std::size_t n, unsigned long long* d_count, cudaStream_t stream);

// ---- billeter.cu: Billeter, Olsson & Assarsson 2009 --------------------------------------------

enum class compact_kind { prefix, popc };
enum class output_kind { staged, scattered, buffered, selective };

struct billeter_config {
  compact_kind compact = compact_kind::popc;
  output_kind output = output_kind::staged;
  unsigned words = 1;       ///< element size in 32-bit words: 1, 2 or 4
  unsigned blocks = 1;      ///< blocks per chunk (P = blocks × warps per block)
  std::size_t chunk = 0;    ///< elements per chunk; n (one chunk) when not chunked
  std::size_t chunks = 1;
};

/// d_counts / d_offsets: 2 × P entries (chunked mode double-buffers them); d_chunk: 2 per chunk + 2
/// (base, total); d_count: the compacted count; d_done: last-block-done counter.
struct billeter_state {
  const void* in = nullptr;
  void* out = nullptr;
  std::size_t n = 0;
  std::uint32_t* counts = nullptr;
  std::uint32_t* offsets = nullptr;
  unsigned long long* chunk = nullptr;
  unsigned long long* count = nullptr;
  unsigned* done = nullptr;
};

[[nodiscard]] int billeter_occupancy(const billeter_config& c);
/// Whole stream: phase 1 (count per warp), phase 2 (scan of the P counts), phase 3 (move).
void billeter_count(const billeter_state& s, const billeter_config& c, cudaStream_t stream);
void billeter_scan(const billeter_state& s, const billeter_config& c, cudaStream_t stream);
void billeter_move(const billeter_state& s, const billeter_config& c, cudaStream_t stream);
/// Chunked: the prologue counts chunk 0 (its last block scans); step c moves chunk c while the other
/// half of the grid counts chunk c + 1 into L2.
void billeter_chunk_prologue(const billeter_state& s, const billeter_config& c, cudaStream_t stream);
void billeter_chunk_step(const billeter_state& s, const billeter_config& c, std::size_t chunk, cudaStream_t stream);

/// Billeter §5.2 prefix sum of the valid flags: phases count and scan as above, then `prefix`
/// writes the exclusive prefix sum of every element into d_prefix (P virtual processors).
void billeter_prefix(const billeter_state& s, const billeter_config& c, std::uint32_t* d_prefix, cudaStream_t stream);
/// Billeter §5.3 stream split: valid elements to the front, invalid ones after them, both in order.
void billeter_split_move(const billeter_state& s, const billeter_config& c, cudaStream_t stream);

// ---- scan.cu: map → scan → scatter ------------------------------------------------------------

/// flags[i] = a[i] != 0 as 32-bit values.
void launch_map(std::uint32_t* d_flags, const std::uint32_t* d_a, std::size_t n, cudaStream_t stream);
/// One Hillis-Steele pass: out[i] = in[i] + (i ≥ offset ? in[i − offset] : 0).
void launch_hillis_pass(std::uint32_t* d_out, const std::uint32_t* d_in, std::size_t n, std::size_t offset,
                        cudaStream_t stream);
/// Blelloch up/down-sweep of each block of 2 × tuning::scan_block elements in shared memory:
/// exclusive sums in d_out, each block's total in d_sums (may be null for a single block).
void launch_blelloch_blocks(std::uint32_t* d_out, const std::uint32_t* d_in, std::uint32_t* d_sums, std::size_t n,
                            cudaStream_t stream);
/// d_out[i] += d_sums[block of i].
void launch_add_block_sums(std::uint32_t* d_out, const std::uint32_t* d_sums, std::size_t n, cudaStream_t stream);
[[nodiscard]] std::size_t blelloch_block_elements();
/// out[prefix[i]] = a[i] where a[i] != 0; *d_count = prefix[n−1] + (a[n−1] != 0). `inclusive`
/// says whether d_prefix is an inclusive (Hillis-Steele) or exclusive (Blelloch) sum.
void launch_scatter(std::uint32_t* d_out, const std::uint32_t* d_a, const std::uint32_t* d_prefix, std::size_t n,
                    bool inclusive, unsigned long long* d_count, cudaStream_t stream);

// ---- ink.cu: the InK-style three kernels ------------------------------------------------------

void ink_block_counts(const std::uint32_t* d_a, std::size_t n, unsigned block, std::uint32_t* d_counts,
                      cudaStream_t stream);
void ink_move(const std::uint32_t* d_a, std::size_t n, unsigned block, const std::uint32_t* d_offsets,
              std::uint32_t* d_out, cudaStream_t stream);
/// Writes *d_count = offsets[last] + counts[last].
void ink_total(const std::uint32_t* d_counts, const std::uint32_t* d_offsets, std::size_t blocks,
               unsigned long long* d_count, cudaStream_t stream);

// ---- cub_select.cu: CUB baselines (temporary storage sized here, allocated by the caller) ------

/// Temporary bytes DeviceScan::ExclusiveSum needs for n 32-bit values.
[[nodiscard]] std::size_t cub_exclusive_sum_bytes(std::size_t n);
void cub_exclusive_sum(void* d_temp, std::size_t temp_bytes, const std::uint32_t* d_in, std::uint32_t* d_out,
                       std::size_t n, cudaStream_t stream);
/// Exclusive sum of (a[i] != 0) without a flags array (for billeter_scan's `cub` scan).
[[nodiscard]] std::size_t cub_flag_sum_bytes(std::size_t n);
void cub_flag_sum(void* d_temp, std::size_t temp_bytes, const std::uint32_t* d_a, std::uint32_t* d_out,
                  std::size_t n, cudaStream_t stream);
/// DeviceSelect::If with `payload != 0`; d_out == nullptr selects in place.
[[nodiscard]] std::size_t cub_if_bytes(std::size_t n, bool in_place);
void cub_if(void* d_temp, std::size_t temp_bytes, std::uint32_t* d_a, std::uint32_t* d_out, std::size_t n,
            unsigned long long* d_count, cudaStream_t stream);
/// DeviceSelect::Flagged with a byte stencil; d_out == nullptr selects in place.
[[nodiscard]] std::size_t cub_flagged_bytes(std::size_t n, bool in_place);
void cub_flagged(void* d_temp, std::size_t temp_bytes, std::uint32_t* d_a, const std::uint8_t* d_flags,
                 std::uint32_t* d_out, std::size_t n, unsigned long long* d_count, cudaStream_t stream);

// ---- thrust_select.cu: thrust baselines on a preallocated arena --------------------------------

/// The memory thrust's temporary allocations come from. In `measuring` mode (prepare) requests are
/// served by cudaMalloc and the peak is recorded; afterwards a run bumps through `base` and a
/// request beyond `capacity` is an error, never an allocation.
struct thrust_arena {
  char* base = nullptr;
  std::size_t capacity = 0;
  std::size_t used = 0;
  std::size_t live = 0, peak = 0;
  bool measuring = false;
};
/// thrust::copy_if(payload != 0); returns the count (thrust reads it back: a host synchronization
/// inside the timed phase that thrust's interface imposes).
std::size_t thrust_copy_if(thrust_arena& arena, const std::uint32_t* d_in, std::uint32_t* d_out, std::size_t n,
                           cudaStream_t stream);
/// thrust::remove_if(payload == 0) in place; returns the count.
std::size_t thrust_remove_if(thrust_arena& arena, std::uint32_t* d_a, std::size_t n, cudaStream_t stream);

} // namespace winnow::cuda
