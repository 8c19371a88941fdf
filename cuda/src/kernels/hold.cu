// The hold kernel (dispatch/hold.hpp): a stream waits behind it until the host has queued a run.
#include "../check.hpp"
#include "../dispatch/hold.hpp"

namespace winnow::cuda {
namespace {

__device__ std::uint64_t global_ns() {
  std::uint64_t t = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void hold_kernel(std::uint32_t* gate, std::uint64_t timeout_ns) {
  // volatile: every read goes to the host's memory, where the host's write lands.
  const volatile std::uint32_t* open = gate;
  const std::uint64_t start = global_ns();
  while (*open == 0) {
    if (global_ns() - start > timeout_ns) {
      gate[1] = 1;
      return;
    }
    __nanosleep(1000);
  }
}

} // namespace

void launch_hold(std::uint32_t* d_gate, std::uint64_t timeout_ns, cudaStream_t stream) {
  hold_kernel<<<1, 1, 0, stream>>>(d_gate, timeout_ns);
  // Not check_launch: in a Debug build it waits for the kernel, and the hold waits for the host.
  WINNOW_CUDA_CHECK(cudaGetLastError());
}

} // namespace winnow::cuda
