#pragma once
/// The backend lifecycle every algorithm of every API follows:
///   1. info()            static: api, name, stable, in place, input kind, parameter axes
///   2. prepare(w, p)     allocate and upload; not timed
///   3. reset()           before each repetition: restore the input an earlier run consumed; not timed
///   4. run(timer)        the timed work; marks its phases on the timer
///   5. result()          read back the compacted stream (and, out of place, the input); not timed
/// `reset` is winnow's addition to the four steps of DESIGN.md: in-place algorithms destroy their
/// input, and repetitions must all measure the same work.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "winnow/timer.hpp"
#include "winnow/verify.hpp"
#include "winnow/workload.hpp"

namespace winnow {

enum class input_kind {
  predicate,    ///< payload 0 marks the elements to drop
  removal_list, ///< a list R of indices to drop (Redzone)
};

/// One parameter axis, e.g. `block` or `scan`.
struct param_axis {
  std::string key;
  std::string help;
  std::string default_value;
  /// The values a sweep (the conformance suite) covers. When `choices_only`, the accepted values are
  /// `accepted` (or, when that is empty, `values` themselves); otherwise the axis is an integer in
  /// [min, max] (a power of two if asked).
  std::vector<std::string> values;
  bool choices_only = true;
  std::int64_t min = 0;
  std::int64_t max = 0;
  bool power_of_two = false;
  /// Accepted values beyond the sweep (e.g. a fallback covered by its own tests).
  std::vector<std::string> accepted = {};

  [[nodiscard]] const std::vector<std::string>& choices() const { return accepted.empty() ? values : accepted; }
};

using params = std::map<std::string, std::string>;

struct algorithm_info {
  std::string api;  ///< "cpu", "gl", "vk", "cuda"
  std::string name; ///< "redzone"; the full name is api/name
  std::string summary;
  bool stable = true;
  bool in_place = false;
  input_kind input = input_kind::predicate;
  std::vector<param_axis> axes;

  [[nodiscard]] std::string full_name() const { return api + "/" + name; }
};

/// Bytes an algorithm reads and writes in global memory for one run, by its own model, and the
/// launches it makes (GL passes, Vulkan dispatches, CUDA kernels); records carry them so bandwidth
/// and per-launch overhead can be derived.
struct traffic {
  std::uint64_t read = 0;
  std::uint64_t written = 0;
  std::uint64_t launches = 0;
};

class algorithm {
public:
  virtual ~algorithm() = default;
  virtual void prepare(const workload& w, const params& p) = 0;
  virtual void reset() {}
  virtual void run(timer& t) = 0;
  [[nodiscard]] virtual compaction_output result() = 0;
  /// Valid after a run (GPU backends tally their passes as they record them).
  [[nodiscard]] virtual traffic bytes_moved() const = 0;
  /// The timer of this algorithm's API (GPU backends time on the device).
  [[nodiscard]] virtual std::unique_ptr<timer> make_timer() { return make_cpu_timer(); }
  /// Evicts the working set from caches before a cold repetition.
  virtual void flush_caches() {}
};

/// Checks `given` against the axes: unknown keys, values outside the choices or the range are
/// usage errors naming the key and the accepted values. Returns every axis with defaults filled in.
[[nodiscard]] params resolve_params(const algorithm_info& info, const params& given);

/// Every combination of the axes' sweep `values` (the conformance suite's grid); the axes named in
/// `except` keep their defaults.
[[nodiscard]] std::vector<params> sweep(const algorithm_info& info, const std::vector<std::string>& except = {});

/// Parses "key=value"; throws usage_error otherwise.
[[nodiscard]] std::pair<std::string, std::string> parse_param(const std::string& text);

/// "block=128,scan=hillis" (keys sorted) — for names and tables.
[[nodiscard]] std::string to_string(const params& p);

} // namespace winnow
