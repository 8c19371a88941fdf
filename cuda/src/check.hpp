#pragma once
// WINNOW_CUDA_CHECK: a failed CUDA runtime call throws winnow::error with file:line, the call's text
// and the cudaError name (winnow/error.hpp, tier 1). Shared by host (.cpp) and device (.cu) sources.
#include <cuda_runtime_api.h>

#include <cstdio>
#include <exception>
#include <source_location>
#include <string>

#include "winnow/error.hpp"

namespace winnow::cuda {

inline void check(cudaError_t e, const char* call, std::source_location where = std::source_location::current()) {
  if (e != cudaSuccess)
    throw_call_error(call, std::string(cudaGetErrorName(e)) + " (" + cudaGetErrorString(e) + ")", where);
}

/// For destructors, which must not throw: log and terminate.
inline void check_noexcept(cudaError_t e, const char* call) noexcept {
  // At process exit the runtime may already be gone; nothing is left to release then.
  if (e == cudaSuccess || e == cudaErrorCudartUnloading) return;
  std::fprintf(stderr, "winnow::cuda: %s: %s (%s)\n", call, cudaGetErrorName(e), cudaGetErrorString(e));
  std::terminate();
}

/// After every kernel launch: a bad configuration is reported at once; Debug builds also wait for
/// the kernel, so a fault names the launch that caused it (as CUB_DEBUG_SYNC does).
inline void check_launch(const char* kernel, cudaStream_t stream,
                         std::source_location where = std::source_location::current()) {
  check(cudaGetLastError(), kernel, where);
#if defined(WINNOW_CUDA_DEBUG_SYNC)
  check(cudaStreamSynchronize(stream), kernel, where);
#else
  (void)stream;
#endif
}

} // namespace winnow::cuda

#define WINNOW_CUDA_CHECK(call) ::winnow::cuda::check((call), #call)
