#pragma once
// WINNOW_CUDA_CHECK: a failed CUDA runtime call throws winnow::error with file:line, the call's text
// and the cudaError name (winnow/error.hpp, tier 1); a sticky error as winnow::context_lost. Shared by
// host (.cpp) and device (.cu) sources.
#include <cuda_runtime_api.h>

#include <cstdio>
#include <exception>
#include <source_location>
#include <string>

#include "winnow/error.hpp"

namespace winnow::cuda {

/// The errors after which the CUDA context is corrupt: every later call in this process fails with
/// them ("the process must be terminated and relaunched", the runtime API's documentation says).
inline bool sticky(cudaError_t e) {
  switch (e) {
  case cudaErrorIllegalAddress:
  case cudaErrorLaunchFailure:
  case cudaErrorLaunchTimeout:
  case cudaErrorHardwareStackError:
  case cudaErrorIllegalInstruction:
  case cudaErrorMisalignedAddress:
  case cudaErrorInvalidAddressSpace:
  case cudaErrorInvalidPc:
  case cudaErrorAssert:
  case cudaErrorECCUncorrectable: return true;
  default: return false;
  }
}

inline void check(cudaError_t e, const char* call, std::source_location where = std::source_location::current()) {
  if (e == cudaSuccess) return;
  const std::string what = std::string(cudaGetErrorName(e)) + " (" + cudaGetErrorString(e) + ")";
  if (sticky(e)) throw_context_lost(call, what, where);
  throw_call_error(call, what, where);
}

/// For destructors, which must not throw: log and terminate.
inline void check_noexcept(cudaError_t e, const char* call) noexcept {
  // At process exit the runtime may already be gone; nothing is left to release then. After a
  // sticky error nothing can be released either: the harness records the run that lost the
  // context, and bench goes on in a fresh process (winnow/error.hpp, context_lost).
  if (e == cudaSuccess || e == cudaErrorCudartUnloading || sticky(e)) return;
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
