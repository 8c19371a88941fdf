#include "memory.hpp"

#include <algorithm>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include "winnow/error.hpp"

namespace winnow::cli {

namespace {

/// A number from a one-line file such as /sys/fs/cgroup/memory.max; nullopt for "max" or no file.
std::optional<std::uint64_t> read_number(const char* path) {
  std::ifstream in(path);
  std::uint64_t v = 0;
  if (in >> v) return v;
  return std::nullopt;
}

} // namespace

std::uint64_t available_memory() {
  std::uint64_t have = ~std::uint64_t{0}; // unknown: do not refuse
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  while (meminfo >> key >> kib) {
    if (key == "MemAvailable:") {
      have = kib * 1024;
      break;
    }
    meminfo.ignore(64, '\n');
  }
  // In a container the cgroup's limit is what the OOM killer enforces, not the machine's memory.
  if (const auto limit = read_number("/sys/fs/cgroup/memory.max")) {
    const std::uint64_t used = read_number("/sys/fs/cgroup/memory.current").value_or(0);
    have = std::min(have, *limit > used ? *limit - used : 0);
  }
  return have;
}

std::uint64_t working_bytes(const case_spec& spec) { return 12 * elements_of(spec); }

std::uint64_t run_footprint(const case_spec& spec) { return footprint_bytes(spec) + working_bytes(spec); }

void check_fits(const case_spec& spec) {
  const std::uint64_t need = run_footprint(spec), have = available_memory();
  if (need <= have) return;
  std::ostringstream os;
  os.precision(3);
  os << to_string(spec) << ": too large for this machine's memory (needs about "
     << static_cast<double>(need) / (1ull << 30) << " GiB, " << static_cast<double>(have) / (1ull << 30)
     << " GiB available)";
  throw usage_error(os.str());
}

} // namespace winnow::cli
