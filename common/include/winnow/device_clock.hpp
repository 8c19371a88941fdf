#pragma once
/// The SM clock of the device a record runs on. The harness watches it so that every timed sample is
/// taken at a known clock (docs/design-notes.md, "Warm the device, not every record"). NVIDIA's
/// management library (NVML) reads it, loaded at run time with dlopen: it ships with the driver, so it
/// is no build dependency, and where it is absent (Mesa, the CPU, no NVIDIA driver) the harness keeps
/// its settle rule.
#include <memory>
#include <optional>
#include <string>

namespace winnow {

/// Which physical device a backend runs on, as NVML can find it. Either may be empty (unknown).
struct device_identity {
  std::string uuid;       ///< NVML's form of the 16-byte UUID, "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"
  std::string pci_bus_id; ///< "0000:01:00.0" (domain:bus:device.function, hexadecimal)

  [[nodiscard]] bool empty() const { return uuid.empty() && pci_bus_id.empty(); }
};

/// NVML's text of a 16-byte device UUID ("GPU-" and 8-4-4-4-12 lowercase hex digits): Vulkan's
/// VkPhysicalDeviceIDProperties::deviceUUID and CUDA's cudaDeviceProp::uuid on an NVIDIA device.
[[nodiscard]] std::string nvidia_uuid(const unsigned char* bytes16);
/// "domain:bus:device.function" as NVML takes it, e.g. "0000:01:00.0".
[[nodiscard]] std::string pci_bus_id(unsigned domain, unsigned bus, unsigned device, unsigned function);

/// A device's SM clock, as the harness reads it around every timed sample (tests give a fake).
class clock_source {
public:
  virtual ~clock_source() = default;
  /// The SM clock now [MHz]; nullopt when it could not be read.
  [[nodiscard]] virtual std::optional<double> sm_mhz() = 0;
  /// The most the SM clock can reach [MHz]: the throttle threshold is a fraction of it.
  [[nodiscard]] virtual double max_sm_mhz() const = 0;
};

/// The NVML clock of the device `id` names, or, when there is none, why not.
struct nvml_opened {
  std::unique_ptr<clock_source> clock;
  std::string why; ///< "winnow nvml: libnvidia-ml.so.1: cannot open shared object file …"; empty with a clock
};

/// Loads NVML from `library` (dlopen; tests name a fake or a missing one), finds the device by UUID,
/// else by PCI bus id, and reads its maximum SM clock. Never throws for a missing library, symbol or
/// device: those are the answer's `why`.
[[nodiscard]] nvml_opened open_nvml_clock(const device_identity& id, const std::string& library = "libnvidia-ml.so.1");

} // namespace winnow
