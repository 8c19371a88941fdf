// A stand-in for libnvidia-ml.so.1 (loaded by path in device_clock_test): one device, found by one
// UUID or one PCI bus id, whose SM clock the test sets. The C ABI as NVIDIA's nvml.h declares it:
// int results (NVML_SUCCESS = 0, NVML_ERROR_INVALID_ARGUMENT = 2, NVML_ERROR_NOT_FOUND = 6), opaque
// device handles, NVML_CLOCK_SM = 1.
#include <cstring>

namespace {
int g_device;
unsigned g_sm_mhz = 345;
int g_initialized = 0;
} // namespace

extern "C" {

__attribute__((visibility("default"))) int nvmlInit_v2() {
  ++g_initialized;
  return 0;
}
__attribute__((visibility("default"))) int nvmlShutdown() {
  --g_initialized;
  return 0;
}
__attribute__((visibility("default"))) const char* nvmlErrorString(int result) {
  return result == 6 ? "Not Found" : result == 2 ? "Invalid Argument" : "Unknown Error";
}
__attribute__((visibility("default"))) int nvmlDeviceGetHandleByUUID(const char* uuid, void** device) {
  if (std::strcmp(uuid, "GPU-00112233-4455-6677-8899-aabbccddeeff") != 0) return 6;
  *device = &g_device;
  return 0;
}
__attribute__((visibility("default"))) int nvmlDeviceGetHandleByPciBusId_v2(const char* id, void** device) {
  if (std::strcmp(id, "0000:17:00.0") != 0) return 6;
  *device = &g_device;
  return 0;
}
__attribute__((visibility("default"))) int nvmlDeviceGetClockInfo(void* device, int type, unsigned* mhz) {
  if (device != &g_device || type != 1 || g_initialized <= 0) return 2;
  *mhz = g_sm_mhz;
  return 0;
}
__attribute__((visibility("default"))) int nvmlDeviceGetMaxClockInfo(void* device, int type, unsigned* mhz) {
  if (device != &g_device || type != 1 || g_initialized <= 0) return 2;
  *mhz = 1980;
  return 0;
}

// The test's controls, not NVML's.
__attribute__((visibility("default"))) void fake_nvml_set_sm_mhz(unsigned mhz) { g_sm_mhz = mhz; }
__attribute__((visibility("default"))) int fake_nvml_initialized() { return g_initialized; }
}
