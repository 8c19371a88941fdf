#pragma once
/// The C++20 library pieces winnow uses that Emscripten's libc++ lacks, for the web build (WINNOW_WEB;
/// issue 59): Debian's emscripten 3.1.6 ships libc++ 14, which has no <source_location>, no std::bit_cast,
/// no std::atomic_ref and no std::from_chars or std::to_chars for double. Each shim below is used only where that
/// library lacks the piece (its feature-test macro unset) under Emscripten; everywhere else the name is the std one
/// itself, so native builds compile exactly the code they did before.
#include <atomic>
#include <bit>
#include <charconv>
#include <string>
#include <system_error>
#include <version>

#if defined(__EMSCRIPTEN__) && !defined(__cpp_lib_source_location)
#define WINNOW_SHIM_SOURCE_LOCATION 1
#else
#include <source_location>
#endif
#if defined(__EMSCRIPTEN__) && !defined(__cpp_lib_bit_cast)
#define WINNOW_SHIM_BIT_CAST 1
#endif
#if defined(__EMSCRIPTEN__) && !defined(__cpp_lib_atomic_ref)
#define WINNOW_SHIM_ATOMIC_REF 1
#endif
#if defined(__EMSCRIPTEN__) && !defined(__cpp_lib_to_chars)
#define WINNOW_SHIM_CHARCONV_DOUBLE 1
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#endif

namespace winnow {

#ifdef WINNOW_SHIM_SOURCE_LOCATION
/// std::source_location from clang's builtins (clang 14 has __builtin_FILE and __builtin_LINE, evaluated
/// where a default argument is used, but not yet __builtin_source_location).
class source_location {
public:
  [[nodiscard]] static constexpr source_location current(const char* file = __builtin_FILE(),
                                                         const char* function = __builtin_FUNCTION(),
                                                         unsigned line = __builtin_LINE(),
                                                         unsigned column = __builtin_COLUMN()) noexcept {
    source_location s;
    s.m_file = file;
    s.m_function = function;
    s.m_line = line;
    s.m_column = column;
    return s;
  }
  [[nodiscard]] constexpr const char* file_name() const noexcept { return m_file; }
  [[nodiscard]] constexpr const char* function_name() const noexcept { return m_function; }
  [[nodiscard]] constexpr unsigned line() const noexcept { return m_line; }
  [[nodiscard]] constexpr unsigned column() const noexcept { return m_column; }

private:
  const char* m_file = "";
  const char* m_function = "";
  unsigned m_line = 0;
  unsigned m_column = 0;
};
#else
using std::source_location;
#endif

#ifdef WINNOW_SHIM_BIT_CAST
/// std::bit_cast through the builtin that libc++ 15 wraps (clang 14 has it).
template <class To, class From> [[nodiscard]] constexpr To bit_cast(const From& from) noexcept {
  static_assert(sizeof(To) == sizeof(From), "bit_cast: sizes differ");
  return __builtin_bit_cast(To, from);
}
#else
using std::bit_cast;
#endif

#ifdef WINNOW_SHIM_ATOMIC_REF
/// The relaxed load and store of std::atomic_ref that winnow uses, through the compiler's atomic builtins.
template <class T> class atomic_ref {
public:
  explicit atomic_ref(T& object) noexcept : m_object(&object) {}
  void store(T value, std::memory_order order = std::memory_order_seq_cst) const noexcept {
    __atomic_store_n(m_object, value, static_cast<int>(order));
  }
  [[nodiscard]] T load(std::memory_order order = std::memory_order_seq_cst) const noexcept {
    return __atomic_load_n(m_object, static_cast<int>(order));
  }

private:
  T* m_object;
};
#else
using std::atomic_ref;
#endif

#ifdef WINNOW_SHIM_CHARCONV_DOUBLE
/// std::from_chars for double (chars_format::general) through strtod, which reads more: what from_chars
/// refuses is refused first (leading white space or '+'; of a hex float "0x…" only the 0 is read, as
/// from_chars reads it), and a value past double's range (strtod: ERANGE with 0 or inf) is
/// errc::result_out_of_range. Both round correctly (musl's strtod). `value` is written only on success.
[[nodiscard]] inline std::from_chars_result from_chars(const char* first, const char* last, double& value) {
  std::string text(first, last); // strtod needs the terminating 0
  if (text.empty() || text[0] == '+' || std::isspace(static_cast<unsigned char>(text[0])))
    return {first, std::errc::invalid_argument};
  const std::size_t sign = text[0] == '-' ? 1 : 0;
  if (text.size() > sign + 1 && text[sign] == '0' && (text[sign + 1] == 'x' || text[sign + 1] == 'X'))
    text.resize(sign + 1);
  const char* s = text.c_str();
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(s, &end);
  if (end == s) return {first, std::errc::invalid_argument};
  // musl says ERANGE for some subnormal results too, which from_chars reads; past the range is 0 or inf.
  if (errno == ERANGE && (v == 0 || std::isinf(v))) return {first + (end - s), std::errc::result_out_of_range};
  value = v;
  return {first + (end - s), std::errc()};
}

/// std::to_chars for double, the shortest form (no format given): the fewest significant digits that
/// read back as `value` (found through printf's %.Ne, which rounds exactly in musl), written fixed or
/// scientific, whichever is shorter (fixed on a tie). A whole number too long for those digits is
/// written fixed as printf's %.0f writes it (2^64 is 18446744073709551616), as libstdc++ does.
[[nodiscard]] inline std::to_chars_result to_chars(char* first, char* last, double value) {
  const auto integer = [](double v) {
    char text[320];
    std::snprintf(text, sizeof text, "%.0f", v);
    return std::string(text);
  };
  std::string out;
  if (std::signbit(value)) out += '-';
  if (std::isnan(value) || std::isinf(value)) {
    out += std::isnan(value) ? "nan" : "inf";
  } else if (value == 0) {
    out += '0';
  } else {
    const double a = std::fabs(value);
    // The shortest digits that read back as a, and their decimal exponent: at each length printf's
    // correctly rounded ones, or else a neighbour of theirs in the last place: at a power of two, where
    // the values that read back as a reach less far below it than above, that may be the one.
    const auto reads_back = [&](const std::string& d, int x) {
      const std::string text = d.substr(0, 1) + "." + d.substr(1) + "e" + std::to_string(x);
      return std::strtod(text.c_str(), nullptr) == a;
    };
    const auto neighbour = [](std::string d, char by) -> std::string { // "" past the first digit
      for (std::size_t i = d.size(); i-- > 0;) {
        if (d[i] != (by > 0 ? '9' : '0')) {
          d[i] = static_cast<char>(d[i] + by);
          return d[0] == '0' ? "" : d;
        }
        d[i] = by > 0 ? '0' : '9';
      }
      return "";
    };
    std::string digits;
    int exponent = 0;
    for (int precision = 0; digits.empty(); ++precision) { // 17 digits always read back
      char sci[40];
      std::snprintf(sci, sizeof sci, "%.*e", precision, a);
      const char* e = std::strchr(sci, 'e');
      std::string d(1, sci[0]);
      if (sci[1] == '.') d.append(sci + 2, static_cast<std::size_t>(e - (sci + 2)));
      exponent = std::atoi(e + 1);
      for (const std::string& candidate : {d, neighbour(d, 1), neighbour(d, -1)})
        if (digits.empty() && !candidate.empty() && reads_back(candidate, exponent)) digits = candidate;
    }
    char power[8];
    std::snprintf(power, sizeof power, "e%+03d", exponent);
    std::string scientific = digits.substr(0, 1);
    if (digits.size() > 1) scientific += "." + digits.substr(1);
    scientific += power;
    std::string fixed;
    const auto count = static_cast<int>(digits.size());
    if (exponent < 0) fixed = "0." + std::string(static_cast<std::size_t>(-exponent - 1), '0') + digits;
    else if (exponent + 1 >= count) fixed = integer(a); // printf's digits, not the shortest ones padded
    else
      fixed = digits.substr(0, static_cast<std::size_t>(exponent + 1)) + "." +
              digits.substr(static_cast<std::size_t>(exponent + 1));
    out += fixed.size() <= scientific.size() ? fixed : scientific;
  }
  if (out.size() > static_cast<std::size_t>(last - first)) return {last, std::errc::value_too_large};
  std::memcpy(first, out.data(), out.size());
  return {first + out.size(), std::errc()};
}
#else
using std::from_chars;
using std::to_chars;
#endif

} // namespace winnow
