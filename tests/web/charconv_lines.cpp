// winnow::to_chars and winnow::from_chars for double (compat.hpp) on values and texts of every kind,
// one line each: natively they are the std ones; the web build's are the shims over printf and strtod.
// tests/web/same_bytes.sh runs both and wants the same lines. The doubles are drawn from MT19937 (the
// same everywhere): decimal fractions as the corpus's keys are, any bit pattern, and powers of two,
// where the shortest digits are hardest to find.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "winnow/compat.hpp"

namespace {

const char* name(std::errc e) {
  return e == std::errc()                      ? "ok"
         : e == std::errc::invalid_argument    ? "invalid_argument"
         : e == std::errc::result_out_of_range ? "result_out_of_range"
         : e == std::errc::value_too_large     ? "value_too_large"
                                               : "other";
}

} // namespace

int main() {
  std::mt19937_64 g(7);
  std::vector<double> values = {0.0,
                                -0.0,
                                1.0,
                                0.1,
                                0.02,
                                1e-5,
                                1e-4,
                                0.0001234,
                                1e20,
                                1e21,
                                1e22,
                                1e23,
                                1e5,
                                12345,
                                32,
                                256,
                                0.5,
                                0.999,
                                1.0 / 3,
                                2e-7,
                                5e-324,
                                1.7976931348623157e308,
                                123456789012345678.0,
                                std::ldexp(1.0, 64)};
  for (int i = 0; i < 1000; ++i) values.push_back(static_cast<double>(g() % 1000000) / 1000.0);
  for (int i = 0; i < 5000; ++i) {
    const std::uint64_t bits = g();
    double d = 0;
    std::memcpy(&d, &bits, sizeof d);
    if (!std::isnan(d)) values.push_back(d);
  }
  for (int i = 0; i < 2100; ++i) values.push_back(std::ldexp(1.0, i - 1075));
  for (const double v : values) {
    char text[64];
    const auto written = winnow::to_chars(text, text + sizeof text, v);
    double back = 0;
    const auto read = winnow::from_chars(text, written.ptr, back);
    std::printf("%s %s %s\n", std::string(text, written.ptr).c_str(), name(read.ec), back == v ? "same" : "differs");
  }
  char small[4];
  std::printf("small buffer: %s\n", name(winnow::to_chars(small, small + sizeof small, 0.125).ec));
  for (const char* s : {"",      "+1",   " 1",     "-1",     "1e400",     "-1e400", "1e-400",
                        "0x1p3", "-0x1", "0x",     "inf",    "-infinity", "1.5e",   "1e+",
                        ".5",    "5.",   "-.5e-3", "1e-310", "abc",       "-",      "0.30000000000000004",
                        "00012"}) {
    double v = 42;
    const auto read = winnow::from_chars(s, s + std::strlen(s), v);
    std::printf("[%s] %s read %d: %.17g\n", s, name(read.ec), static_cast<int>(read.ptr - s), v);
  }
  return 0;
}
