#include "winnow/error.hpp"

#include <algorithm>
#include <cctype>

namespace winnow {
namespace {

/// Edits (insert, delete, substitute, swap two neighbours) from a to b, case-insensitive: a swapped
/// pair of letters or a mistyped case is one typo.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  const auto same = [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
  };
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (same(a[i - 1], b[j - 1]) ? 0 : 1)});
      if (i > 1 && j > 1 && same(a[i - 1], b[j - 2]) && same(a[i - 2], b[j - 1]))
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

} // namespace

std::string did_you_mean(std::string_view given, const std::vector<std::string>& known) {
  if (given.empty()) return "";
  // Two edits, or a third of the word for long ones; one for a word of one or two letters.
  const std::size_t limit = given.size() <= 2 ? 1 : std::max<std::size_t>(2, given.size() / 3);
  const std::string* best = nullptr;
  std::size_t best_distance = limit + 1;
  for (const auto& k : known)
    if (const std::size_t d = edit_distance(given, k); d < best_distance) {
      best_distance = d;
      best = &k;
    }
  return best ? " (did you mean '" + *best + "'?)" : "";
}

namespace {
std::string call_error_text(std::string_view call, std::string_view what, source_location where) {
  std::string file = where.file_name();
  if (auto slash = file.find_last_of('/'); slash != std::string::npos) file.erase(0, slash + 1);
  return file + ":" + std::to_string(where.line()) + ": " + std::string(call) + ": " + std::string(what);
}
} // namespace

void throw_call_error(std::string_view call, std::string_view what, source_location where) {
  throw error(call_error_text(call, what, where));
}

void throw_context_lost(std::string_view call, std::string_view what, source_location where) {
  throw context_lost(call_error_text(call, what, where));
}

} // namespace winnow
