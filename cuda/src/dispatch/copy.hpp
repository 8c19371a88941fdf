#pragma once
// The dispatch layer of kernels/copy.cu: what `winnow calibrate --api cuda` measures the device with.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace winnow::cuda {

/// The pass-through kernel (Billeter et al. 2009, Table 1): `bytes` copied from d_in to d_out by
/// accesses of `width` bytes (4, 8 or 16), a grid-stride loop over as many threads as the device
/// holds resident. `bytes` must be a multiple of `width`, both pointers aligned to it.
void launch_copy(void* d_out, const void* d_in, std::size_t bytes, unsigned width, cudaStream_t stream);
/// d_a[d_at[i]] = d_values[i] for every i < count: one 4-byte write at each of `count` places, the
/// places and the values read contiguously (calibrate's hole-write floor under Redzone's fill).
void launch_scatter(std::uint32_t* d_a, const std::uint32_t* d_at, const std::uint32_t* d_values, std::size_t count,
                    cudaStream_t stream);
/// A kernel that does nothing: one block of one thread.
void launch_empty(cudaStream_t stream);

} // namespace winnow::cuda
