#pragma once
/// The backend lifecycle every algorithm of every API follows:
///   1. info()            static: api, name, stable, in place, input kind, parameter axes
///   2. prepare(w, p)     allocate and upload; not timed
///   3. reset()           before each repetition: restore the input an earlier run consumed; not timed
///   4. run(timer)        the timed work; marks its phases on the timer
///   5. result()          read back the compacted stream (and, out of place, the input); not timed.
///                        Or matches_on_device(): the check where the output lies, on backends that have it.
///                        The last step: the CPU algorithms hand their buffers over rather than copy
///                        them (and refuse a second result() or reset()), so an algorithm runs again
///                        only after prepare() again.
/// `reset` is winnow's addition to the usual four steps (docs/design-notes.md): in-place algorithms destroy their
/// input, and repetitions must all measure the same work.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "winnow/device_copies.hpp"
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
  /// Accepted values beyond the sweep (e.g. a fallback covered by its own tests); on an integer axis,
  /// the words it accepts beside its integers (e.g. "auto": the backend chooses the number).
  std::vector<std::string> accepted = {};
  /// Besides the choices, any text without ',' (a file's path): see text_axis.
  bool free_text = false;

  [[nodiscard]] const std::vector<std::string>& choices() const { return accepted.empty() ? values : accepted; }
};

/// An axis of named values: `sweep` are swept by the conformance suite, `accepted` (when not empty)
/// are accepted beyond them.
[[nodiscard]] param_axis choice_axis(std::string key, std::string help, std::string default_value,
                                     std::vector<std::string> sweep, std::vector<std::string> accepted = {});
/// An integer axis in [min, max] (a power of two when asked); `sweep` are the values the conformance
/// suite covers; `words` are accepted beside the integers (param_set::integer refuses them: the
/// backend asks text() first).
[[nodiscard]] param_axis integer_axis(std::string key, std::string help, std::string default_value,
                                      std::vector<std::string> sweep, std::int64_t min, std::int64_t max,
                                      bool power_of_two = false, std::vector<std::string> words = {});
/// An axis whose value is one of `sweep` or any other text without ',' (records print parameters
/// joined by ','), e.g. a path: the backend says what it means and refuses what it cannot use.
[[nodiscard]] param_axis text_axis(std::string key, std::string help, std::string default_value,
                                   std::vector<std::string> sweep);
/// An "off"/"on" axis.
[[nodiscard]] param_axis on_off_axis(std::string key, std::string help, std::string default_value);

/// Parameters as given (key → text): on the command line, in suites, in records.
using params = std::map<std::string, std::string>;

struct algorithm_info {
  std::string api;  ///< "cpu", "gl", "vk", "cuda"
  std::string name; ///< "redzone"; the full name is api/name
  std::string summary;
  bool stable = true;
  bool in_place = false;
  input_kind input = input_kind::predicate;
  std::vector<param_axis> axes;
  /// Its run's time per element against its api's typical compaction, for a plan's estimates only
  /// (docs/cli.md, "Sharding"): the algorithms on one block of a GPU or one core of a CPU, and the
  /// O(n log n) scan, take many times as long; nothing else reads it.
  double relative_cost = 1.0;

  [[nodiscard]] std::string full_name() const { return api + "/" + name; }
};

/// Parameters after the one parse (resolve_params): every axis of the algorithm, checked against it,
/// defaults filled in, integers already converted. Backends read values only through it.
class param_set {
public:
  param_set() = default;
  /// The number of an integer axis. Throws winnow::error when `key` is no integer axis of this set
  /// (a bug in the backend, not the user's input).
  [[nodiscard]] std::int64_t integer(std::string_view key) const;
  /// The value of a choice axis, mapped to the backend's own type:
  ///   p.choice("scan", {{"hillis", scan_kind::hillis}, {"blelloch", scan_kind::blelloch}})
  /// Throws winnow::error when the value has no entry (the axis and the map disagree).
  template <class T>
  [[nodiscard]] T choice(std::string_view key, std::initializer_list<std::pair<std::string_view, T>> map) const {
    const std::string& v = text(key);
    for (const auto& [name, value] : map)
      if (name == v) return value;
    unmapped(key);
  }
  /// An "off"/"on" axis.
  [[nodiscard]] bool on(std::string_view key) const { return choice<bool>(key, {{"off", false}, {"on", true}}); }
  /// The text of any axis, as records print it.
  [[nodiscard]] const std::string& text(std::string_view key) const;
  [[nodiscard]] bool contains(std::string_view key) const { return m_text.find(std::string(key)) != m_text.end(); }
  /// key → text of every axis (records, names, tables).
  [[nodiscard]] const params& texts() const { return m_text; }

private:
  friend param_set resolve_params(const algorithm_info& info, const params& given);
  [[noreturn]] void unmapped(std::string_view key) const;
  params m_text;
  std::map<std::string, std::int64_t, std::less<>> m_numbers;
};

/// What the harness asks of a run besides the parameters (not timed, not part of the algorithm).
struct prepare_options {
  /// Search loops also write their trip counts, and result() fails when one exceeded the loop's
  /// proven bound (the shader-era algorithms; others ignore it). Costs a second output per pass.
  bool loop_check = false;
  /// Each pass timed as a phase of its own, named "PHASE: PASS" (the shader-era algorithms; others
  /// ignore it): where a phase's time goes. A timestamp between every two passes costs a little.
  bool per_pass = false;
  /// The case's device copies, shared by its records (prepared_case::copies): a backend may keep the
  /// case's input on its device there, uploaded by the first record and copied on the device by the
  /// others. nullptr: each prepare uploads its own.
  device_copies* copies = nullptr;
};

/// Bytes an algorithm reads and writes in global memory for one run, by its own model, and the
/// launches it makes (GL passes, Vulkan dispatches, CUDA kernels); records carry them so bandwidth
/// and per-launch overhead can be derived.
struct traffic {
  std::uint64_t read = 0;
  std::uint64_t written = 0;
  std::uint64_t launches = 0;
};

/// What a result is checked against (algorithm::matches_on_device): the case, its reference output,
/// and where the backend keeps its device copy of them for the case's other records.
struct expected_output {
  const workload& w;
  const std::vector<std::uint32_t>& values;
  device_copies& copies;
};

class algorithm {
public:
  virtual ~algorithm() = default;
  virtual void prepare(const workload& w, const param_set& p, const prepare_options& o) = 0;
  virtual void reset() {}
  virtual void run(timer& t) = 0;
  [[nodiscard]] virtual compaction_output result() = 0;
  /// Step 5 where the output lies, instead of result(): whether the run's output is `expected`
  /// (stable: in order, else as a set; the count; an out-of-place input unchanged), decided on the
  /// device from a few counters read back. false says only that something differs: the harness then
  /// reads the output back (result()) to name it. nullopt: this backend checks on the host only.
  /// The check must not depend on the algorithm: it reads where the run says its result lies.
  [[nodiscard]] virtual std::optional<bool> matches_on_device(const expected_output& expected, bool stable) {
    (void)expected;
    (void)stable;
    return std::nullopt;
  }
  /// Valid after a run (GPU backends tally their passes as they record them).
  [[nodiscard]] virtual traffic bytes_moved() const = 0;
  /// The timer of this algorithm's API (GPU backends time on the device).
  [[nodiscard]] virtual std::unique_ptr<timer> make_timer() { return make_cpu_timer(); }
  /// Evicts the working set from the device's caches before a cold repetition, outside the timed
  /// region. Every backend implements it: a record that says `cold` must have been flushed.
  virtual void flush_caches() = 0;
  /// What this run settled for parameters given as "auto" (valid after prepare), or what the last run
  /// chose (the adaptive algorithm: its candidate's algorithm and parameters): records carry it as
  /// `chosen` beside the parameters as given, e.g. concat=auto with chosen concat=lines.
  [[nodiscard]] virtual params chosen() const { return {}; }
  /// The numbers this algorithm weighed to decide how to run (valid after prepare), which are neither
  /// parameters nor choices: records carry them as `notes`, so a reader can check the decision (the
  /// adaptive algorithm's choice=auto: the mean regret it weighed against the price of choosing).
  [[nodiscard]] virtual params notes() const { return {}; }
  /// Why this algorithm cannot take `n` elements on this device (e.g. a texture-size limit), asked
  /// before the case is made so that an impossible size costs no generation; nullopt when it can.
  [[nodiscard]] virtual std::optional<std::string> refuses(std::uint64_t n) const {
    (void)n;
    return std::nullopt;
  }
};

/// Checks `given` against the axes: unknown keys, values outside the choices or the range are
/// usage errors naming the key and the accepted values. Returns every axis with defaults filled in.
[[nodiscard]] param_set resolve_params(const algorithm_info& info, const params& given);

/// Every combination of the value lists, keys in the order given: {{"a", {1, 2}}, {"b", {x}}} →
/// {a=1,b=x}, {a=2,b=x}. One empty set when `lists` is empty.
[[nodiscard]] std::vector<params> product(const std::vector<std::pair<std::string, std::vector<std::string>>>& lists);

/// Every combination of the axes' sweep `values` (the conformance suite's grid); the axes named in
/// `except` keep their defaults.
[[nodiscard]] std::vector<params> sweep(const algorithm_info& info, const std::vector<std::string>& except = {});

/// Parses "key=value"; throws usage_error otherwise.
[[nodiscard]] std::pair<std::string, std::string> parse_param(const std::string& text);

/// "block=128,scan=hillis" (keys sorted) — for names and tables.
[[nodiscard]] std::string to_string(const params& p);

} // namespace winnow
