#include "context.hpp"

#include "check.hpp"
#include "winnow/cuda/device.hpp"
#include "winnow/error.hpp"

namespace winnow::cuda {

std::optional<std::string> unavailable_reason() {
  static const std::optional<std::string> reason = []() -> std::optional<std::string> {
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e == cudaErrorNoDevice || (e == cudaSuccess && count == 0)) return "no CUDA device (cudaErrorNoDevice)";
    if (e != cudaSuccess)
      // No driver, a driver older than this runtime, a device in a bad state: all mean no device.
      return std::string("no CUDA device (") + cudaGetErrorName(e) + ": " + cudaGetErrorString(e) + ")";
    return std::nullopt;
  }();
  return reason;
}

device_info describe_device() {
  const device_properties& p = context::get().props();
  auto version = [](int v) { return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10); };
  return {p.name + " (sm_" + std::to_string(p.major) + std::to_string(p.minor) + ", " + std::to_string(p.sms) +
              " SMs, " + std::to_string(p.l2_bytes >> 20) + " MiB L2)",
          "CUDA driver " + version(p.driver_version) + ", runtime " + version(p.runtime_version) + " (static)",
          p.identity};
}

context& context::get() {
  if (auto reason = unavailable_reason()) throw unavailable("winnow::cuda: " + *reason);
  // Never destroyed: at exit the static runtime may unload before a static destructor would run.
  static context* c = new context;
  return *c;
}

context::context() {
  WINNOW_CUDA_CHECK(cudaSetDevice(0));
  cudaDeviceProp prop{};
  WINNOW_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  m_props.name = prop.name;
  m_props.major = prop.major;
  m_props.minor = prop.minor;
  m_props.sms = prop.multiProcessorCount;
  m_props.max_threads_per_sm = prop.maxThreadsPerMultiProcessor;
  m_props.l2_bytes = static_cast<std::size_t>(prop.l2CacheSize);
  m_props.shared_per_block = prop.sharedMemPerBlock;
  m_props.shared_per_block_optin = prop.sharedMemPerBlockOptin;
  m_props.identity.uuid = nvidia_uuid(reinterpret_cast<const unsigned char*>(prop.uuid.bytes));
  m_props.identity.pci_bus_id =
      pci_bus_id(static_cast<unsigned>(prop.pciDomainID), static_cast<unsigned>(prop.pciBusID),
                 static_cast<unsigned>(prop.pciDeviceID), 0);
  WINNOW_CUDA_CHECK(cudaDriverGetVersion(&m_props.driver_version));
  WINNOW_CUDA_CHECK(cudaRuntimeGetVersion(&m_props.runtime_version));
  // Non-blocking: nothing else in the process (the legacy default stream) serializes with us.
  WINNOW_CUDA_CHECK(cudaStreamCreateWithFlags(&m_stream, cudaStreamNonBlocking));
}

context::~context() {
  // At process exit the driver may already be shutting down; a failure here is not worth a crash.
  if (m_stream) (void)cudaStreamDestroy(m_stream);
}

void context::flush_l2() {
  if (m_flush.size() == 0) m_flush.resize(2 * std::max<std::size_t>(m_props.l2_bytes, 1 << 20));
  // Writes, not reads: dirty lines of the working set must be evicted too.
  static unsigned char round = 0;
  WINNOW_CUDA_CHECK(cudaMemsetAsync(m_flush.get(), ++round, m_flush.bytes(), m_stream));
  WINNOW_CUDA_CHECK(cudaStreamSynchronize(m_stream));
}

} // namespace winnow::cuda
