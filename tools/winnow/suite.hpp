#pragma once
// Benchmark suites are data: JSON files in tools/winnow/suites/, embedded into the binary. A
// backend adds its suite by adding a file. Format:
//   { "name": "cpu", "description": "...", "apis": ["cpu"],          // apis to sweep ([] = all)
//     "algorithms": ["cpu/redzone"],                                   // optional: only these
//     "sizes": ["128K", "1M"], "cases": ["removal:{size}:k=0.1"],     // {size} expands over sizes
//     "params": { "gl/horn": { "block": ["32", "128"] } },            // swept as a product; else defaults
//     "params": { "cuda/redzone2": [{ "early": ["off"] }, {}] },      // a list: each a product, run one after another
//     "warmup": 1, "warmup_ms": 200, "reps": 5, "min_time_ms": 20, "busy_ms": 30,
//     "seeds": 20,                                                    // seeded cases with seeds s … s+19 (bench
//     --seeds) "quick": { "sizes": ["64K"], "reps": 2 } }                      // --quick: these keys replace the
//     suite's
// A suite file is checked whole when it loads, by the command line's rules: unknown keys, wrong
// types, out-of-range numbers, a name that is not a plain file name, no cases: usage errors naming the key.
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace winnow::cli {

struct suite {
  std::string name, description;
  std::vector<std::string> apis, algorithms, sizes, cases;
  /// Per algorithm, the grids to run one after another, each a product of its value lists (one grid
  /// when the file gives an object; an empty grid is the defaults).
  std::map<std::string, std::vector<std::map<std::string, std::vector<std::string>>>> params;
  int warmup = 1, reps = 5;
  int seeds = 1;          ///< every seeded case this many times, with consecutive seeds (bench --seeds)
  double warmup_ms = 200; ///< and at least this long (GPU clocks ramp up after the host's case generation)
  double min_time_ms = 0; ///< timed runs until they add up to this much measured time (bench --min-time)
  /// With a clock (warm-up rule nvml): each record keeps the device busy this long (bench --busy-time).
  double busy_ms = 30;

  /// The case specs, with {size} expanded in order of size, then case.
  [[nodiscard]] std::vector<std::string> expanded_cases() const;
  /// The suite with its "quick" section's keys in place of its own (usage_error when it has none):
  /// small sizes, few parameters and repetitions, for a run end to end on a software driver.
  [[nodiscard]] suite quick() const;

  std::optional<std::string> quick_json; ///< the "quick" section as written, applied by quick()
  std::string origin;                    ///< the embedded name or the file's path, for messages
};

/// The name of a results file (NAME.jsonl in --out): a plain file name, or a usage_error naming `what`.
void check_results_name(const std::string& what, const std::string& name);
/// A suite from its JSON text, checked whole (`origin` names it in messages). usage_error on anything wrong.
[[nodiscard]] suite parse_suite(const std::string& origin, const std::string& text);
/// An embedded suite by name, or a JSON file by path. Throws usage_error listing the known suites.
[[nodiscard]] suite load_suite(const std::string& name_or_path);
[[nodiscard]] std::vector<suite> embedded_suite_list();

} // namespace winnow::cli
