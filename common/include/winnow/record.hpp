#pragma once
/// Records: one per (api, algorithm, params, case), written as JSON Lines and as CSV (the same
/// rows flattened), each file whole or not at all.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "winnow/algorithm.hpp"

namespace winnow {

/// Bumped whenever a field changes meaning or disappears.
inline constexpr int record_schema_version = 1;

/// One quantity over the timed repetitions [ns]. Quartiles interpolate linearly between order
/// statistics (as numpy's default), so q1 = min and q3 = max for two samples.
struct stats {
  double median = 0;
  double min = 0;
  double max = 0;
  double mean = 0;
  double stddev = 0; ///< sample standard deviation (n - 1); 0 for one sample
  double q1 = 0;     ///< first quartile
  double q3 = 0;     ///< third quartile

  /// Relative noise: the standard deviation over the mean (nvbench's "Noise"); 0 when the mean is 0.
  [[nodiscard]] double noise() const { return mean > 0 ? stddev / mean : 0; }
};

struct phase_stats {
  std::string name;
  stats ns;
};

struct record {
  std::string winnow_version;
  std::string command;
  std::string host;
  std::string device;
  std::string driver;
  std::string api;
  std::string algorithm; ///< api/name
  params parameters;
  params chosen;    ///< what the run settled for parameters given as "auto" (algorithm::chosen)
  params notes;     ///< the numbers the algorithm weighed to decide (algorithm::notes)
  std::string spec; ///< canonical
  std::uint64_t n = 0;
  std::uint64_t removals = 0;
  std::uint64_t valid = 0; ///< valid elements of the case: what the reference keeps
  std::uint64_t kept = 0;  ///< elements the algorithm kept (its own count; equals `valid` when verified)
  bool stable = true;
  bool in_place = false;
  int warmup = 0;
  double warmup_ns = 0;     ///< and at least this long [ns]
  int warmup_runs = 0;      ///< the untimed repetitions made (more while the runs still got faster)
  double warmup_ran_ns = 0; ///< and the wall time they took [ns]
  double busy_ns = 0;       ///< with a clock: the device kept busy at least this long, timed runs included [ns]
  bool busy_timed = true;   ///< and timed runs filled it (else untimed ones before them: WINNOW_BUSY=untimed)
  /// How the record warmed up (measurement::warmup_rule): "settle", "nvml" or "nvml+device", the
  /// last two with "+heat" where a wait for the clock ran run_options::heat; empty
  /// where nothing ran, and in records written before it was kept. The rest only where it is set:
  std::string warmup_rule;
  std::uint64_t discarded = 0; ///< timed samples thrown away, taken below the throttle threshold
  double sm_mhz_min = 0;       ///< the SM clock over the kept samples [MHz] ("nvml" only; 0: not read)
  double sm_mhz_max = 0;
  double sm_mhz_peak = 0;     ///< the device's maximum SM clock [MHz] ("nvml" only)
  bool clock_gave_up = false; ///< the clock stayed below the threshold for the whole wait: samples kept as they came
  int reps = 0;               ///< timed repetitions made (more than asked when repeating until max_noise)
  double max_noise = 0;       ///< repeat until total.noise() ≤ this (0: a fixed number of repetitions)
  double min_time_ns = 0;     ///< repeat until the timed runs' totals add up to this (0: reps alone)
  double timeout_s = 0;       ///< … or until this many seconds of timed repetitions have passed
  bool cold = false;          ///< the device's caches were flushed before every repetition
  bool debug = false;         ///< debug contexts (GL debug output, the Vulkan validation layer) were on
  std::string timer;          ///< what measured the phases (timer::clock())
  std::vector<phase_stats> phases;
  stats total;
  stats wall;
  std::uint64_t bytes_read = 0;
  std::uint64_t bytes_written = 0;
  std::uint64_t launches = 0; ///< passes / dispatches / kernel launches per run (0: not counted)
  /// Where the record's wall time went on the host, step by step [ns]: "make" (bench only: how long
  /// bench waited for the case to be made, a whole batch's making on the case's first record that
  /// started one, 0 on the others), "prepare" (the algorithm made and set up: allocation, upload, its
  /// traffic model), "runs" (the warm-up and timed repetitions), "result" (the output read back),
  /// "check" (verification) and "release" (the algorithm destroyed, its output freed). The steps that
  /// finished: a record whose run failed has those before the failure. Empty where the algorithm was
  /// never set up, and in records written before it was kept.
  std::vector<std::pair<std::string, double>> host_ns;
  bool verified = false;
  /// Where the result was checked (run_options::check): "device" (where it lies; read back only to
  /// name a difference) or "host" (read back and compared). Empty where nothing was checked, and in
  /// records written before it was kept.
  std::string checked_on;
  std::string mismatch;               ///< the verifier's message when not verified
  std::optional<std::string> skipped; ///< why the case did not run
};

/// This build's version (git describe at configure time), as records carry it.
[[nodiscard]] const char* version();
/// Fills the fields every record of this process shares (version, command, host).
void stamp(record& r);
/// The command line, set once by main() so records can carry it.
void set_command_line(int argc, char** argv);
/// The program's name as the command line recorded it (its first word), e.g. `build/release/winnow`.
[[nodiscard]] std::string typed_program();

[[nodiscard]] std::string to_json_line(const record& r);
/// The inverse of to_json_line (for resuming a bench from its journal). Throws error naming the
/// field that is missing or of the wrong type.
[[nodiscard]] record from_json_line(const std::string& line);
/// Header and rows; phase columns are the union of all phases, in order of first appearance.
[[nodiscard]] std::string to_csv(const std::vector<record>& rows);

/// Parameters as the CSV files write them: "k1=v1;k2=v2" (';': the field holds no comma).
[[nodiscard]] std::string csv_params(const params& p);
/// A CSV field, quoted where it holds a comma, a quote or a newline.
[[nodiscard]] std::string csv_field(const std::string& s);
/// A number as the record files write it (12 significant digits).
[[nodiscard]] std::string num(double v);

/// Writes `text` to `path` through a temporary file in the same folder and a rename, so a reader
/// sees the old file or the new one, never half of one. Throws error naming the path.
void write_atomically(const std::filesystem::path& path, const std::string& text);
void write_jsonl(const std::filesystem::path& path, const std::vector<record>& rows);
void write_csv(const std::filesystem::path& path, const std::vector<record>& rows);

} // namespace winnow
