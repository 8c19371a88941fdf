// libFuzzer target: record files as `winnow compare` and `bench --resume` read them (JSON Lines,
// record_check.hpp). Every line is refused with winnow::error or gives a record that passes the
// checks; such a record, written again and read back, passes them again (the files winnow writes
// are files winnow reads).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

#include "record_check.hpp"
#include "winnow/backends.hpp"
#include "winnow/error.hpp"
#include "winnow/record.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const winnow::registry& reg = winnow::all_backends();
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  for (std::string line; std::getline(in, line);) {
    (void)winnow::cli::jsonl_kind(line);
    winnow::record r;
    try {
      r = winnow::from_json_line(line);
      winnow::cli::check_record(r, reg);
    } catch (const winnow::error&) { continue; }
    try {
      winnow::cli::check_record(winnow::from_json_line(winnow::to_json_line(r)), reg);
    } catch (const winnow::error& e) {
      std::fprintf(stderr, "a record that passed, written again, is refused: %s\n", e.what());
      std::abort();
    }
  }
  return 0;
}
