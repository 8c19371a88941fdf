#pragma once
// The dispatch layer of kernels/hold.cu: a kernel that holds a stream until the host opens a gate,
// so that a run's launches all queue up behind it and then run back to back (nvbench's blocking
// kernel): its events then time the device's work, not the host's enqueueing between launches.
#include <cuda_runtime_api.h>

#include <cstdint>

namespace winnow::cuda {

/// One thread that spins (sleeping 1 µs between reads) until d_gate[0] != 0, or until `timeout_ns`
/// have passed on the device's global timer: then it sets d_gate[1] and returns. d_gate is the device
/// address of host-mapped memory that the host writes.
void launch_hold(std::uint32_t* d_gate, std::uint64_t timeout_ns, cudaStream_t stream);

} // namespace winnow::cuda
