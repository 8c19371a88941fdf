#pragma once
/// One timing interface for every API (GL timestamp queries, Vulkan timestamps, CUDA events, the
/// CPU's steady_clock). An algorithm marks phases; the harness reads the durations after the run,
/// never during it.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace winnow {

struct phase_time {
  std::string name;
  double ns = 0; ///< [ns]
};

class timer {
public:
  virtual ~timer() = default;
  /// Called by the harness right before `algorithm::run`.
  virtual void start() = 0;
  /// Marks the start of a phase; the previous phase (if any) ends here.
  virtual void phase(std::string_view name) = 0;
  /// Called by the harness right after `run`; ends the last phase and waits for the device.
  virtual void stop() = 0;
  /// Per-phase durations in the order marked. A name marked twice appears twice.
  [[nodiscard]] virtual std::vector<phase_time> read() = 0;
  /// What measures the phases, for records: "steady_clock", "GL_TIMESTAMP queries", "CUDA events", …
  [[nodiscard]] virtual std::string clock() const { return "steady_clock"; }
};

/// steady_clock timer for host code.
[[nodiscard]] std::unique_ptr<timer> make_cpu_timer();

} // namespace winnow
