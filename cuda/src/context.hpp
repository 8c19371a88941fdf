#pragma once
// The device every cuda algorithm runs on (device 0), its properties for launch sizing, the one
// stream all work goes to, and the L2 flush for cold runs.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>

#include "buffer.hpp"
#include "winnow/device_clock.hpp"

namespace winnow::cuda {

struct device_properties {
  std::string name;
  int major = 0, minor = 0;
  int sms = 0; ///< streaming multiprocessors
  int max_threads_per_sm = 0;
  std::size_t l2_bytes = 0; ///< [bytes]
  std::size_t shared_per_block = 0;
  std::size_t shared_per_block_optin =
      0; ///< the most a kernel may ask for with cudaFuncAttributeMaxDynamicSharedMemorySize
  int driver_version = 0, runtime_version = 0; ///< 13000 = 13.0
  device_identity identity; ///< UUID and PCI bus id, as NVML finds the device (the harness watches its clock)
};

class context {
public:
  /// The process-wide context; the first call selects device 0 and creates the stream.
  /// Throws winnow::unavailable when there is no usable device.
  static context& get();

  [[nodiscard]] const device_properties& props() const { return m_props; }
  [[nodiscard]] cudaStream_t stream() const { return m_stream; }
  /// Writes a buffer of twice the L2 size, evicting the working set before a cold repetition.
  /// The buffer is allocated on the first call (outside any timed run).
  void flush_l2();

  context(const context&) = delete;
  context& operator=(const context&) = delete;
  ~context();

private:
  context();
  device_properties m_props;
  cudaStream_t m_stream = nullptr;
  device_buffer<std::uint8_t> m_flush;
};

} // namespace winnow::cuda
