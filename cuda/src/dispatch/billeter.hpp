#pragma once
// The dispatch layer of kernels/billeter.cu: Billeter, Olsson & Assarsson 2009. Host-callable
// functions that size and launch the kernels (CUB's device → dispatch → agent); every pointer is a
// device pointer (d_ prefix), every launch goes to `stream` and is checked.
#include <cuda_runtime_api.h>
#include <vector_types.h>

#include <cstddef>
#include <cstdint>

namespace winnow::cuda {

enum class compact_kind { prefix, popc };
enum class output_kind { staged, scattered, buffered, selective };

struct billeter_config {
  compact_kind compact = compact_kind::popc;
  output_kind output = output_kind::staged;
  unsigned words = 1;    ///< element size in 32-bit words: 1, 2 or 4
  unsigned blocks = 1;   ///< blocks per chunk (P = blocks × warps per block)
  std::size_t chunk = 0; ///< elements per chunk; n (one chunk) when not chunked
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
/// Billeter §5.2 as the paper times it, the exclusive prefix sum of 32-bit values (modulo 2^32):
/// `value_sum` writes each warp's sum of its range into d_counts (phase 1), billeter_scan turns them
/// into offsets (phase 2), `value_prefix` writes every element's exclusive sum into d_out (phase 3;
/// d_out may be the input).
void billeter_value_sum(const billeter_state& s, const billeter_config& c, cudaStream_t stream);
void billeter_value_prefix(const billeter_state& s, const billeter_config& c, std::uint32_t* d_out,
                           cudaStream_t stream);
/// Billeter §5.3 stream split: valid elements to the front, invalid ones after them, both in order.
void billeter_split_move(const billeter_state& s, const billeter_config& c, cudaStream_t stream);
/// One pass of §5.3's radix sort, on elements of c.words words whose word 0 is the key: `radix_count`
/// counts per warp the elements whose key bit `bit` is 0 (phase 1), billeter_scan scans them (phase
/// 2), `radix_split` splits the stream by that bit, 0s first, both halves in order (phase 3).
void billeter_radix_count(const billeter_state& s, const billeter_config& c, unsigned bit, cudaStream_t stream);
void billeter_radix_split(const billeter_state& s, const billeter_config& c, unsigned bit, cudaStream_t stream);
/// The radix sort's pre- and postprocessing for keys and values in separate arrays (the paper's
/// "separate" row): d_pairs[i] = (d_keys[i], d_values[i]), and back.
void billeter_interleave(const std::uint32_t* d_keys, const std::uint32_t* d_values, uint2* d_pairs, std::size_t n,
                         cudaStream_t stream);
void billeter_deinterleave(const uint2* d_pairs, std::uint32_t* d_keys, std::uint32_t* d_values, std::size_t n,
                           cudaStream_t stream);

} // namespace winnow::cuda
