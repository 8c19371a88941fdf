#pragma once
// The dispatch layer of kernels/thrust_select.cu: thrust baselines on a preallocated arena. Host-
// callable functions that size and launch the kernels (CUB's device → dispatch → agent); every
// pointer is a device pointer (d_ prefix), every launch goes to `stream` and is checked.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "../buffer.hpp"

namespace winnow::cuda {

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
/// Sizes `arena` for what `call()` asks thrust for: one untimed call whose requests cudaMalloc
/// serves (prepare time), then `memory` of the peak behind the arena.
template <class F> void size_arena(thrust_arena& arena, device_buffer<char>& memory, F&& call) {
  arena = {};
  arena.measuring = true;
  call();
  arena.measuring = false;
  memory.resize(arena.peak);
  arena.base = memory.get();
  arena.capacity = arena.peak;
}
/// thrust::copy_if(payload != 0); returns the count (thrust reads it back: a host synchronization
/// inside the timed phase that thrust's interface imposes).
std::size_t thrust_copy_if(thrust_arena& arena, const std::uint32_t* d_in, std::uint32_t* d_out, std::size_t n,
                           cudaStream_t stream);
/// thrust::exclusive_scan of n 32-bit values (the CIS 565 write-up's library scan).
void thrust_exclusive_scan(thrust_arena& arena, const std::uint32_t* d_in, std::uint32_t* d_out, std::size_t n,
                           cudaStream_t stream);
/// thrust::remove_if(payload == 0) in place; returns the count.
std::size_t thrust_remove_if(thrust_arena& arena, std::uint32_t* d_a, std::size_t n, cudaStream_t stream);

} // namespace winnow::cuda
