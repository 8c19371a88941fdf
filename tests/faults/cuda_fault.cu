// A real lost CUDA context for fault_algorithms.cpp: a kernel writes where no allocation is, the
// device reports cudaErrorIllegalAddress, and every later call in this process fails with it. The
// CUDA backend's own check (cuda/src/check.hpp) turns it into winnow::context_lost.
#include <cuda_runtime.h>

#include "check.hpp"

namespace winnow::faults {
namespace {
__global__ void write_nowhere(int* p) { *p = 1; }
} // namespace

void lose_cuda_context() {
  write_nowhere<<<1, 1>>>(reinterpret_cast<int*>(8)); // page 0 is never mapped on the device
  WINNOW_CUDA_CHECK(cudaGetLastError());
  WINNOW_CUDA_CHECK(cudaDeviceSynchronize()); // cudaErrorIllegalAddress: context_lost
  throw error("tests/faults: the kernel wrote to address 8 and CUDA did not mind");
}

} // namespace winnow::faults
