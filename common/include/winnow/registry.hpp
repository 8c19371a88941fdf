#pragma once
/// The registry of algorithms across backends. Every backend library adds itself with a
/// `register_backend(registry&)` function; tools/backends calls the ones that were built and adds
/// the others as unavailable with the reason they were not built.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "winnow/algorithm.hpp"
#include "winnow/device_clock.hpp"

namespace winnow {

/// The device and driver a backend runs on, for records.
struct device_info {
  std::string device;
  std::string driver;
  /// Which physical device it is, so the harness can watch its clock (NVML); nullopt where the
  /// backend cannot tell (the CPU, a driver without the query).
  std::optional<device_identity> identity;
  /// Keeps the device busy for about the nanoseconds given with work of the backend's own, returning
  /// how long it did: run_options::heat, for records whose own runs leave the device idle. Empty: none.
  std::function<double(double)> heat;
};

/// Lifecycle step 1 (info) without constructing the algorithm, and a factory for the rest.
struct algorithm_entry {
  algorithm_info info;
  std::function<std::unique_ptr<algorithm>()> make;
};

/// One measured constant of a device, for pass models: e.g. "empty_pass_ns", "copy_bytes_per_ns".
struct calibration {
  std::string name;
  double value = 0;
  std::string unit;
  std::string how; ///< what was measured, in a few words
};

struct backend {
  std::string api;
  std::string summary;
  /// Why this backend cannot run here (not built, no device, no display), or nothing.
  std::function<std::optional<std::string>()> unavailable_reason;
  /// Only called when available.
  std::function<device_info()> device;
  /// Measures the constants pass models need (`winnow calibrate`); may be empty.
  std::function<std::vector<calibration>()> calibrate;
  std::vector<algorithm_entry> algorithms;
};

class registry {
public:
  void add(backend b);
  /// A backend that was not built, listed so `winnow list` can say why.
  void add_unavailable(std::string api, std::string summary, std::string reason);
  /// One more algorithm of a backend already added (its api is entry.info.api): a program's own, as
  /// the tests' fault-injection algorithms (tests/faults). Throws winnow::error when there is none.
  void add_algorithm(algorithm_entry entry);

  [[nodiscard]] const std::vector<backend>& backends() const { return m_backends; }
  /// Throws usage_error listing the known apis.
  [[nodiscard]] const backend& find_backend(std::string_view api) const;
  /// "api/name"; throws usage_error listing the known algorithms.
  [[nodiscard]] const algorithm_entry& find(std::string_view full_name) const;
  /// Cached: probing a GPU backend may create a context.
  [[nodiscard]] std::optional<std::string> unavailable_reason(std::string_view api) const;
  [[nodiscard]] device_info device(std::string_view api) const;

private:
  std::vector<backend> m_backends;
  mutable std::vector<std::pair<std::string, std::optional<std::string>>> m_probed;
  mutable std::vector<std::pair<std::string, device_info>> m_devices;
};

namespace cpu {
/// Adds the `cpu` backend: sequential, remove_if, par_remove_if, redzone, stencil.
void register_backend(registry& r);
} // namespace cpu

} // namespace winnow
