#pragma once
// The dispatch layer of kernels/billeter.cu: Billeter, Olsson & Assarsson 2009. Host-callable
// functions that size and launch the kernels (CUB's device → dispatch → agent); every pointer is a
// device pointer (d_ prefix), every launch goes to `stream` and is checked.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace winnow::cuda {

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

} // namespace winnow::cuda
