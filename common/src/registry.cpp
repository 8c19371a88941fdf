#include "winnow/registry.hpp"

#include "winnow/error.hpp"

namespace winnow {

void registry::add(backend b) { m_backends.push_back(std::move(b)); }

void registry::add_unavailable(std::string api, std::string summary, std::string reason) {
  backend b;
  b.api = std::move(api);
  b.summary = std::move(summary);
  b.unavailable_reason = [reason = std::move(reason)] { return std::optional<std::string>(reason); };
  m_backends.push_back(std::move(b));
}

void registry::add_algorithm(algorithm_entry entry) {
  for (auto& b : m_backends)
    if (b.api == entry.info.api) {
      b.algorithms.push_back(std::move(entry));
      return;
    }
  throw error("registry: " + entry.info.full_name() + " for a backend this registry lacks");
}

const backend& registry::find_backend(std::string_view api) const {
  std::string known;
  std::vector<std::string> names;
  for (const auto& b : m_backends) {
    if (b.api == api) return b;
    known += (known.empty() ? "" : ", ") + b.api;
    names.push_back(b.api);
  }
  throw usage_error("unknown api '" + std::string(api) + "'" + did_you_mean(api, names) + " (known: " + known + ")");
}

const algorithm_entry& registry::find(std::string_view full_name) const {
  std::string known;
  std::vector<std::string> names;
  for (const auto& b : m_backends)
    for (const auto& a : b.algorithms) {
      if (a.info.full_name() == full_name) return a;
      known += (known.empty() ? "" : ", ") + a.info.full_name();
      names.push_back(a.info.full_name());
    }
  throw usage_error("unknown algorithm '" + std::string(full_name) + "'" + did_you_mean(full_name, names) +
                    " (known: " + known + "; `winnow list` shows every backend, including those not built here)");
}

std::optional<std::string> registry::unavailable_reason(std::string_view api) const {
  for (const auto& [name, reason] : m_probed)
    if (name == api) return reason;
  const backend& b = find_backend(api);
  auto reason = b.unavailable_reason ? b.unavailable_reason() : std::nullopt;
  m_probed.emplace_back(std::string(api), reason);
  return reason;
}

device_info registry::device(std::string_view api) const {
  for (const auto& [name, info] : m_devices)
    if (name == api) return info;
  const backend& b = find_backend(api);
  device_info info = b.device ? b.device() : device_info{};
  m_devices.emplace_back(std::string(api), info);
  return info;
}

} // namespace winnow
