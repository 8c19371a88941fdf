#pragma once
// Large copies between pageable host memory and the device, through pinned memory. The runtime
// copies pageable memory through a staging area of its own, one core filling it: the H200 machine's
// host moved 2.5-3.6 GB/s that way (a 2^29-element case took 0.6-0.85 s a record to upload). Here two pinned chunks
// take turns: all cores fill one (oneTBB) while the copy engine empties the other, and a download the other way round.
// Small copies go straight to cudaMemcpyAsync, where the fixed cost of the chunks would show.
#include <cuda_runtime_api.h>

#include <cstddef>

namespace winnow::cuda {

/// Copies `bytes` from host memory to `d_dst` in stream order. The source may be changed or freed
/// as soon as this returns (as after cudaMemcpyAsync from pageable memory); the copy itself may
/// still be in flight.
void upload_bytes(void* d_dst, const void* h_src, std::size_t bytes, cudaStream_t stream);

/// Copies `bytes` from `d_src`, after the work queued on `stream`, into host memory. Synchronous.
void download_bytes(void* h_dst, const void* d_src, std::size_t bytes, cudaStream_t stream);

/// Copies of at least this many bytes go through the pinned chunks.
inline constexpr std::size_t staged_copy_bytes = std::size_t{16} << 20;

} // namespace winnow::cuda
