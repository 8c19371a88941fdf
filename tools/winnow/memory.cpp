#include "memory.hpp"

#include <sstream>
#include <string>

#include "winnow/error.hpp"
#include "winnow/host_memory.hpp"

namespace winnow::cli {

std::uint64_t available_memory() {
  const std::uint64_t have = available_host_memory();
  // Arrays the process keeps for reuse go to its next request as readily (host_memory.hpp).
  return have == ~std::uint64_t{0} ? have : have + spare_bytes();
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
