// libFuzzer target: suite files. Any text is refused with usage_error or gives a suite whose cases
// expand and whose "quick" section applies without any other exception.
#include <cstdint>
#include <string>

#include "suite.hpp"
#include "winnow/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const winnow::cli::suite s = winnow::cli::parse_suite("fuzz", text);
    (void)s.expanded_cases();
    if (s.quick_json) (void)s.quick().expanded_cases();
  } catch (const winnow::usage_error&) {}
  return 0;
}
