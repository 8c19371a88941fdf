#include "memory.hpp"

#include <fstream>
#include <sstream>
#include <string>

#include "winnow/error.hpp"

namespace winnow::cli {

std::uint64_t available_memory() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  while (meminfo >> key >> kib) {
    if (key == "MemAvailable:") return kib * 1024;
    meminfo.ignore(64, '\n');
  }
  return ~std::uint64_t{0}; // unknown: do not refuse
}

std::uint64_t run_footprint(const case_spec& spec) { return footprint_bytes(spec) + 12 * spec.n; }

void check_fits(const case_spec& spec) {
  const std::uint64_t need = run_footprint(spec), have = available_memory();
  if (need <= have) return;
  std::ostringstream os;
  os.precision(3);
  os << to_string(spec) << ": too large for this machine's memory (needs about " << static_cast<double>(need) / (1ull << 30)
     << " GiB, " << static_cast<double>(have) / (1ull << 30) << " GiB available)";
  throw usage_error(os.str());
}

} // namespace winnow::cli
