#include <dlfcn.h>

#include <cstdio>
#include <memory>
#include <string>
#include <type_traits>

#include "winnow/device_clock.hpp"

namespace winnow {

namespace {

// The few parts of NVML's C ABI used here, declared from NVIDIA's public nvml.h so that building
// needs no NVML header: nvmlReturn_t is a C enum (int) with NVML_SUCCESS = 0, nvmlDevice_t an opaque
// pointer, nvmlClockType_t a C enum in which NVML_CLOCK_SM = 1.
using nvml_return = int;
struct nvml_device_st;
using nvml_device = nvml_device_st*;
constexpr int nvml_success = 0;
constexpr int nvml_clock_sm = 1;

using init_fn = nvml_return (*)();                                    // nvmlInit_v2, nvmlShutdown
using error_string_fn = const char* (*)(nvml_return);                 // nvmlErrorString
using handle_by_text_fn = nvml_return (*)(const char*, nvml_device*); // nvmlDeviceGetHandleByUUID, ..._ByPciBusId_v2
using clock_fn = nvml_return (*)(nvml_device, int, unsigned int*);    // nvmlDeviceGetClockInfo, ...MaxClockInfo

/// The loaded library, initialized; shut down and unloaded with the last clock that uses it.
class nvml_library {
public:
  ~nvml_library() {
    if (m_initialized) (void)m_shutdown();
    if (m_handle) ::dlclose(m_handle);
  }

  /// Empty when loaded and initialized; otherwise why not.
  std::string open(const std::string& library) {
    m_handle = ::dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!m_handle) {
      const char* e = ::dlerror();
      return e ? e : library + ": cannot be loaded";
    }
    std::string missing;
    const auto find = [&](auto& fn, const char* name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(::dlsym(m_handle, name));
      if (!fn) missing += (missing.empty() ? "" : ", ") + std::string(name);
    };
    find(m_init, "nvmlInit_v2");
    find(m_shutdown, "nvmlShutdown");
    find(m_error_string, "nvmlErrorString");
    find(m_by_uuid, "nvmlDeviceGetHandleByUUID");
    find(m_by_pci, "nvmlDeviceGetHandleByPciBusId_v2");
    find(m_clock, "nvmlDeviceGetClockInfo");
    find(m_max_clock, "nvmlDeviceGetMaxClockInfo");
    if (!missing.empty()) return library + " lacks " + missing;
    if (const nvml_return r = m_init(); r != nvml_success) return "nvmlInit_v2: " + error(r);
    m_initialized = true;
    return {};
  }

  [[nodiscard]] std::string error(nvml_return r) const {
    const char* text = m_error_string ? m_error_string(r) : nullptr;
    return (text ? std::string(text) : std::string("error")) + " (" + std::to_string(r) + ")";
  }

  handle_by_text_fn m_by_uuid = nullptr;
  handle_by_text_fn m_by_pci = nullptr;
  clock_fn m_clock = nullptr;
  clock_fn m_max_clock = nullptr;

private:
  void* m_handle = nullptr;
  bool m_initialized = false;
  init_fn m_init = nullptr;
  init_fn m_shutdown = nullptr;
  error_string_fn m_error_string = nullptr;
};

class nvml_clock final : public clock_source {
public:
  nvml_clock(std::shared_ptr<nvml_library> lib, nvml_device d, double max_mhz)
      : m_lib(std::move(lib)), m_device(d), m_max_mhz(max_mhz) {}
  std::optional<double> sm_mhz() override {
    unsigned int mhz = 0;
    if (m_lib->m_clock(m_device, nvml_clock_sm, &mhz) != nvml_success) return std::nullopt;
    return static_cast<double>(mhz);
  }
  double max_sm_mhz() const override { return m_max_mhz; }

private:
  std::shared_ptr<nvml_library> m_lib;
  nvml_device m_device;
  double m_max_mhz;
};

} // namespace

std::string nvidia_uuid(const unsigned char* bytes16) {
  std::string s = "GPU-";
  char hex[3];
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) s += '-';
    std::snprintf(hex, sizeof hex, "%02x", static_cast<unsigned>(bytes16[i]));
    s += hex;
  }
  return s;
}

std::string pci_bus_id(unsigned domain, unsigned bus, unsigned device, unsigned function) {
  char text[32];
  std::snprintf(text, sizeof text, "%04x:%02x:%02x.%x", domain, bus, device, function);
  return text;
}

nvml_opened open_nvml_clock(const device_identity& id, const std::string& library) {
  if (id.empty()) return {nullptr, "winnow nvml: the backend did not say which device it runs on"};
  auto lib = std::make_shared<nvml_library>();
  if (std::string why = lib->open(library); !why.empty()) return {nullptr, "winnow nvml: " + why};
  nvml_device d = nullptr;
  std::string tried;
  if (!id.uuid.empty()) {
    const nvml_return r = lib->m_by_uuid(id.uuid.c_str(), &d);
    if (r != nvml_success) tried = "UUID " + id.uuid + ": " + lib->error(r);
  }
  if (!d && !id.pci_bus_id.empty()) {
    const nvml_return r = lib->m_by_pci(id.pci_bus_id.c_str(), &d);
    if (r != nvml_success)
      tried += (tried.empty() ? "" : "; ") + ("PCI bus id " + id.pci_bus_id + ": " + lib->error(r));
  }
  if (!d) return {nullptr, "winnow nvml: no NVML device by " + tried};
  unsigned int max_mhz = 0;
  if (const nvml_return r = lib->m_max_clock(d, nvml_clock_sm, &max_mhz); r != nvml_success || max_mhz == 0)
    return {nullptr, "winnow nvml: nvmlDeviceGetMaxClockInfo(NVML_CLOCK_SM): " +
                         (r != nvml_success ? lib->error(r) : std::string("0 MHz"))};
  return {std::make_unique<nvml_clock>(std::move(lib), d, static_cast<double>(max_mhz)), {}};
}

} // namespace winnow
