#include "winnow/settings.hpp"

#include <charconv>
#include <cstdlib>
#include <string>

#include "winnow/error.hpp"

namespace winnow {
namespace {

struct debug_state {
  std::optional<bool> value;
  bool read = false;
};

debug_state& debug() {
  static debug_state s;
  return s;
}

const char* env(std::string_view name) {
  const char* v = std::getenv(std::string(name).c_str());
  return v && *v ? v : nullptr;
}

} // namespace

bool debug_enabled() {
  debug_state& s = debug();
  if (!s.value) s.value = env_flag("WINNOW_DEBUG").value_or(false);
  s.read = true;
  return *s.value;
}

void set_debug(bool on) {
  debug_state& s = debug();
  if (s.read && s.value != on)
    throw error(std::string("winnow: debug contexts were already chosen ") + (*s.value ? "on" : "off") +
                "; set --debug before any backend starts");
  s.value = on;
}

std::optional<bool> env_flag(std::string_view name) {
  const char* v = env(name);
  if (!v) return std::nullopt;
  const std::string_view text(v);
  if (text == "1") return true;
  if (text == "0") return false;
  throw usage_error("environment: " + std::string(name) + "='" + std::string(text) + "' is not accepted (0 or 1)");
}

std::optional<std::int64_t> env_integer(std::string_view name, std::int64_t min, std::int64_t max) {
  const char* v = env(name);
  if (!v) return std::nullopt;
  const std::string_view text(v);
  std::int64_t x = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), x);
  if (ec != std::errc() || end != text.data() + text.size() || x < min || x > max)
    throw usage_error("environment: " + std::string(name) + "='" + std::string(text) +
                      "' is not accepted (an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "])");
  return x;
}

} // namespace winnow
