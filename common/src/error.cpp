#include "winnow/error.hpp"

namespace winnow {

void throw_call_error(std::string_view call, std::string_view what, std::source_location where) {
  std::string file = where.file_name();
  if (auto slash = file.find_last_of('/'); slash != std::string::npos) file.erase(0, slash + 1);
  throw error(file + ":" + std::to_string(where.line()) + ": " + std::string(call) + ": " + std::string(what));
}

} // namespace winnow
