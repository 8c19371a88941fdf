#pragma once
// A plain text table for the terminal: columns padded to their widest cell.
#include <string>
#include <vector>

namespace winnow::cli {

class table {
public:
  explicit table(std::vector<std::string> header) : m_rows{std::move(header)} {}
  void add(std::vector<std::string> row) { m_rows.push_back(std::move(row)); }
  [[nodiscard]] std::string str() const;

private:
  std::vector<std::vector<std::string>> m_rows;
};

/// 1234567 ns → "1.235 ms"; picks ns, µs, ms or s.
[[nodiscard]] std::string format_ns(double ns);
/// 75.2 s → "1:15"; 3725 s → "1:02:05".
[[nodiscard]] std::string format_clock(double seconds);
/// 0.01234 → "1.2 %" (two significant digits, at least one decimal).
[[nodiscard]] std::string format_percent(double fraction);
/// bytes / ns → "12.3 GB/s"; "-" when either is 0.
[[nodiscard]] std::string format_bandwidth(double bytes, double ns);

} // namespace winnow::cli
