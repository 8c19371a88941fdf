#pragma once
// The dispatch layer of kernels/scan.cu: map → scan → scatter. Host-callable functions that size
// and launch the kernels (CUB's device → dispatch → agent); every pointer is a device pointer (d_
// prefix), every launch goes to `stream` and is checked.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace winnow::cuda {

/// flags[i] = a[i] != 0 as 32-bit values.
void launch_map(std::uint32_t* d_flags, const std::uint32_t* d_a, std::size_t n, cudaStream_t stream);
/// One Hillis-Steele pass of blocks of `block` threads: out[i] = in[i] + (i ≥ offset ? in[i − offset] : 0).
void launch_hillis_pass(std::uint32_t* d_out, const std::uint32_t* d_in, std::size_t n, std::size_t offset,
                        unsigned block, cudaStream_t stream);
/// Blelloch up/down-sweep of each block of 2 × `block` elements in shared memory (block: a power of
/// two, 32 … 1024 threads): exclusive sums in d_out, each block's total in d_sums (may be null for a
/// single block).
void launch_blelloch_blocks(std::uint32_t* d_out, const std::uint32_t* d_in, std::uint32_t* d_sums, std::size_t n,
                            unsigned block, cudaStream_t stream);
/// d_out[i] += d_sums[Blelloch block of i].
void launch_add_block_sums(std::uint32_t* d_out, const std::uint32_t* d_sums, std::size_t n, unsigned block,
                           cudaStream_t stream);
/// The elements one Blelloch block of `block` threads scans: 2 × block.
[[nodiscard]] std::size_t blelloch_block_elements(unsigned block);
/// Throws winnow::error unless `block` is a power of two in 32 … 1024.
void check_scan_block(unsigned block);
/// out[prefix[i]] = a[i] where a[i] != 0; *d_count = prefix[n−1] + (a[n−1] != 0). `inclusive`
/// says whether d_prefix is an inclusive (Hillis-Steele) or exclusive (Blelloch) sum.
void launch_scatter(std::uint32_t* d_out, const std::uint32_t* d_a, const std::uint32_t* d_prefix, std::size_t n,
                    bool inclusive, unsigned long long* d_count, cudaStream_t stream);

} // namespace winnow::cuda
