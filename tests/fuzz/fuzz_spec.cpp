// libFuzzer target: the corpus spec grammar. Any text either is refused with usage_error or parses
// to a spec whose canonical text parses back to the same spec (a round trip, not just "no crash").
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "winnow/corpus.hpp"
#include "winnow/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  winnow::case_spec spec;
  try {
    spec = winnow::parse_spec(text);
  } catch (const winnow::usage_error&) { return 0; }
  const std::string canonical = winnow::to_string(spec);
  const winnow::case_spec again = winnow::parse_spec(canonical); // must not throw
  if (winnow::to_string(again) != canonical || again.n != spec.n || again.family != spec.family ||
      again.keys != spec.keys || again.path != spec.path)
    std::abort(); // the canonical text is not canonical
  return 0;
}
