#pragma once
#include <string>
#include <utility>
#include <vector>

namespace winnow::cli {
extern const char* const help_text;
/// (name, JSON text) of every suite in tools/winnow/suites.
const std::vector<std::pair<std::string, std::string>>& embedded_suites();
} // namespace winnow::cli
