// thrust baselines: copy_if (out of place), remove_if (in place), and exclusive_scan (cuda/scan_thrust). thrust
// allocates temporary storage inside its algorithms; an allocator over a preallocated arena keeps that out of the timed
// run. thrust returns the end iterator, so it reads the count back and synchronizes inside the
// call: that is part of what these baselines cost, and the README says so.
#include <thrust/copy.h>
#include <thrust/device_ptr.h>
#include <thrust/remove.h>
#include <thrust/scan.h>
#include <thrust/system/cuda/execution_policy.h>

#include "../check.hpp"
#include "../dispatch/thrust.hpp"

namespace winnow::cuda {
namespace {

struct nonzero {
  __host__ __device__ bool operator()(std::uint32_t x) const { return x != 0; }
};
struct is_zero {
  __host__ __device__ bool operator()(std::uint32_t x) const { return x == 0; }
};

constexpr std::size_t round_up(std::size_t bytes) { return (bytes + 255) / 256 * 256; }

/// thrust's allocator interface over a thrust_arena.
struct arena_allocator {
  using value_type = char;
  thrust_arena* arena;

  char* allocate(std::ptrdiff_t count) {
    const std::size_t bytes = round_up(static_cast<std::size_t>(count));
    if (arena->measuring) {
      void* p = nullptr;
      WINNOW_CUDA_CHECK(cudaMalloc(&p, bytes));
      arena->peak += bytes; // a bump allocator needs the sum of one call's requests
      return static_cast<char*>(p);
    }
    if (arena->used + bytes > arena->capacity)
      throw error("winnow::cuda::thrust: a temporary request of " + std::to_string(bytes) +
                  " bytes exceeds the arena of " + std::to_string(arena->capacity) + " bytes sized in prepare");
    char* p = arena->base + arena->used;
    arena->used += bytes;
    return p;
  }
  void deallocate(char* p, std::size_t) {
    if (arena->measuring) WINNOW_CUDA_CHECK(cudaFree(p));
  }
};

auto policy(thrust_arena& arena, cudaStream_t stream) {
  arena.used = 0;
  return thrust::cuda::par(arena_allocator{&arena}).on(stream);
}

} // namespace

std::size_t thrust_copy_if(thrust_arena& arena, const std::uint32_t* d_in, std::uint32_t* d_out, std::size_t n,
                           cudaStream_t stream) {
  const auto in = thrust::device_pointer_cast(d_in);
  const auto out = thrust::device_pointer_cast(d_out);
  const auto end = thrust::copy_if(policy(arena, stream), in, in + static_cast<std::ptrdiff_t>(n), out, nonzero{});
  return static_cast<std::size_t>(end - out);
}

void thrust_exclusive_scan(thrust_arena& arena, const std::uint32_t* d_in, std::uint32_t* d_out, std::size_t n,
                           cudaStream_t stream) {
  const auto in = thrust::device_pointer_cast(d_in);
  thrust::exclusive_scan(policy(arena, stream), in, in + static_cast<std::ptrdiff_t>(n),
                         thrust::device_pointer_cast(d_out));
}

std::size_t thrust_remove_if(thrust_arena& arena, std::uint32_t* d_a, std::size_t n, cudaStream_t stream) {
  const auto a = thrust::device_pointer_cast(d_a);
  const auto end = thrust::remove_if(policy(arena, stream), a, a + static_cast<std::ptrdiff_t>(n), is_zero{});
  return static_cast<std::size_t>(end - a);
}

} // namespace winnow::cuda
