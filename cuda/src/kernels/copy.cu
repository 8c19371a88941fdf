// The pass-through copy by access width, the scatter of words and the empty kernel: `winnow calibrate --api cuda`.
#include <string>

#include "../check.hpp"
#include "../dispatch/copy.hpp"
#include "block.cuh"
#include "launch.cuh"

namespace winnow::cuda {
namespace {

using detail::global_thread;
using detail::grid_threads;

template <class T> __global__ void copy_kernel(T* __restrict__ out, const T* __restrict__ in, std::size_t count) {
  for (std::size_t i = global_thread(); i < count; i += grid_threads()) out[i] = in[i];
}

__global__ void scatter_kernel(std::uint32_t* __restrict__ a, const std::uint32_t* __restrict__ at,
                               const std::uint32_t* __restrict__ values, std::size_t count) {
  for (std::size_t i = global_thread(); i < count; i += grid_threads()) a[at[i]] = values[i];
}

__global__ void empty_kernel() {}

template <class T> void copy_as(void* d_out, const void* d_in, std::size_t bytes, cudaStream_t stream) {
  const std::size_t count = bytes / sizeof(T);
  copy_kernel<<<detail::stream_grid(count), tuning::stream_block, 0, stream>>>(static_cast<T*>(d_out),
                                                                               static_cast<const T*>(d_in), count);
  check_launch("winnow::cuda::copy_kernel", stream);
}

} // namespace

void launch_copy(void* d_out, const void* d_in, std::size_t bytes, unsigned width, cudaStream_t stream) {
  if (bytes % width != 0)
    throw error("winnow::cuda::launch_copy: " + std::to_string(bytes) + " bytes is no multiple of " +
                std::to_string(width));
  switch (width) {
  case 4: copy_as<std::uint32_t>(d_out, d_in, bytes, stream); break;
  case 8: copy_as<uint2>(d_out, d_in, bytes, stream); break;
  case 16: copy_as<uint4>(d_out, d_in, bytes, stream); break;
  default: throw error("winnow::cuda::launch_copy: accesses of " + std::to_string(width) + " bytes (4, 8 or 16)");
  }
}

void launch_scatter(std::uint32_t* d_a, const std::uint32_t* d_at, const std::uint32_t* d_values, std::size_t count,
                    cudaStream_t stream) {
  if (count == 0) return;
  scatter_kernel<<<detail::stream_grid(count), tuning::stream_block, 0, stream>>>(d_a, d_at, d_values, count);
  check_launch("winnow::cuda::scatter_kernel", stream);
}

void launch_empty(cudaStream_t stream) {
  empty_kernel<<<1, 1, 0, stream>>>();
  check_launch("winnow::cuda::empty_kernel", stream);
}

} // namespace winnow::cuda
