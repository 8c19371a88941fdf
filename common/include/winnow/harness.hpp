#pragma once
/// Runs an algorithm with warm-up and repetitions, reduces the per-phase times to median/min/max,
/// verifies the result and fills a record. Catches per case: a missing capability becomes a
/// skipped record with the reason, never an abort of the whole sweep.
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "winnow/algorithm.hpp"
#include "winnow/device_clock.hpp"
#include "winnow/record.hpp"
#include "winnow/registry.hpp"

namespace winnow {

/// Host wall time since `from` [ns]: how the harness and bench time their steps.
[[nodiscard]] inline double ns_since(std::chrono::steady_clock::time_point from) {
  return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - from).count();
}

/// A device the harness times on, across the records of a process: its clock, and whether it has
/// been warmed up. One per physical device (watch()), shared by the APIs that run on it.
struct watched_device {
  std::unique_ptr<clock_source> clock; ///< nullptr: no clock to watch (the "settle" rule)
  bool warmed = false;                 ///< the once-per-process warm-up has run
  /// A warm-up whose runs kept the device busy (at least half its time) never brought the clock to the
  /// threshold: no record waits for it.
  bool gave_up = false;
  /// The mean device time of a run of the last wait for the clock (the device's warm-up or a record's)
  /// that ran out with the device mostly idle [ns] (0: none since the device last warmed up): records
  /// of runs as short do not wait for the clock, and the first of runs 4× as long warms it up again.
  double idle_run_ns = 0;
  double warmed_mhz = 0; ///< where the clock settled in the warm-up [MHz] (0: not yet, or it never did)
  /// What records hold to (run_options::settled_fraction of it) [MHz]: warmed_mhz, lowered to where a
  /// record that waited in vain got (the records after it do not wait for it as well), raised again
  /// by a record whose kept samples read higher, at most to warmed_mhz.
  double settled_mhz = 0;
  std::string why; ///< why there is no clock (open_nvml_clock's answer)
};

/// The process's watched device for `id`: opened once (NVML, open_nvml_clock) and kept for the
/// process, with its clock or why it has none. nullptr when `id` is nullopt (the backend cannot tell).
[[nodiscard]] watched_device* watch(const std::optional<device_identity>& id);

/// Where run_case checks a result: read back and compared on the host (winnow::verify), or where it
/// lies (algorithm::matches_on_device), reading it back only to name a difference; on a backend
/// that cannot check there, on the host all the same.
enum class check_place { host, device };

struct run_options {
  int warmup = 1;    ///< untimed repetitions first
  int reps = 5;      ///< timed repetitions (at least); the record holds their statistics
  bool cold = false; ///< flush the device's caches (algorithm::flush_caches) before every repetition
  /// Warm up for at least this long too [ns]: a GPU left idle while the host generates a case
  /// drops its clocks (an H200: 1980 → 345 MHz), and a few short repetitions are timed before the
  /// clocks come back (3× slower Vulkan passes were measured so).
  double warmup_ns = 0;
  prepare_options prepare; ///< e.g. the loop check of the shader-era algorithms
  /// When > 0, repeat beyond `reps` until the total's relative noise (stddev / mean) is at most this
  /// or `timeout_ns` of wall time has passed in timed repetitions (nvbench's --max-noise / --timeout).
  double max_noise = 0;
  double timeout_ns = 15e9;
  /// When > 0, repeat beyond `reps` until the timed runs' totals add up to at least this [ns] of
  /// measured time (nvbench's --min-time), or until `timeout_ns` of wall time has passed: a short
  /// run is sampled as often as its record's host work costs, rather than waited for.
  double min_time_ns = 0;
  /// After warmup and warmup_ns, go on warming up for up to this long [ns] while the runs still get
  /// faster (still_settling): from idle the H200's clock climbed 345 → 615 → 1140 MHz over a second of Vulkan runs, and
  /// a fixed warm-up timed 2^28-element records at 3-4× their time (docs/driver-quirks.md).
  double settle_ns = 3e9;
  /// The device's clock (watch()); nullptr: none to watch, and the warm-up above runs for every
  /// record (rule "settle"). With a clock (rule "nvml") warmup_ns and the settling are not used: the
  /// device is warmed up once per process until its SM clock is at least throttle_threshold of its
  /// maximum and has stopped rising (at most settle_ns); "the threshold" below is the higher of that
  /// and settled_fraction of watched_device::settled_mhz. Each record then makes its `warmup` runs
  /// (and, !busy_timed, those busy_ns asks for), runs on untimed while the clock is below the threshold, and discards a
  /// timed sample taken below it, running on until the clock is back; all that waiting is bounded by settle_ns per
  /// record.
  watched_device* device = nullptr;
  /// With a clock: keep the device busy for at least this long per record [ns], its untimed runs
  /// counted: timed runs beyond `reps` fill it (or, !busy_timed, untimed runs before them, the timed
  /// ones estimated as long as the last untimed one). A record of short
  /// dispatches otherwise leaves the GPU idle most of the time (between runs and between records),
  /// and NVIDIA's driver lowers the clock within seconds: on the H200 to 900-1500 MHz, each record
  /// 3-70 % slow, faster than NVML reported it (docs/design-notes.md, "Busy, not just warm").
  double busy_ns = 0;
  /// Spend busy_ns in timed runs (more samples, as nvbench's --min-time does) rather than in untimed
  /// runs before them: the device is as busy either way, and the time counts as measured.
  bool busy_timed = true;
  double throttle_threshold = 0.75; ///< nvbench's default
  /// And at least this fraction of the clock the device settled at (watched_device::settled_mhz): the
  /// H200's clock slid to 0.77-0.96 of it in the middle of a campaign, over the 75 % threshold, and its
  /// records were 2-17 % slow.
  double settled_fraction = 0.97;
  check_place check = check_place::host; ///< run_case's check; measure() leaves output empty with `device`
  /// Work of the backend's own that keeps the device busy for about the nanoseconds it is given and
  /// returns how long it did (device_info::heat); empty: none. A wait for the clock runs it in place of
  /// the record's runs when those leave the device mostly idle: the H100's 1M-16M Vulkan lookback
  /// records (15-20 µs of each ~70 µs run) held its clock at 1140-1410 MHz of 1980, and no number of
  /// such runs brought it up. The timed runs then come straight after it.
  std::function<double(double)> heat;
};

/// With the clock watched, an untimed run this long [ns] has absorbed the first-run costs (loading
/// kernels, caches, TLBs): measure() makes no more for them, whatever run_options::warmup asks
/// (nvbench makes one). A 2^29-element one-block Redzone run takes 260 ms on the H200, and its second
/// warm-up run cost the Redzone paper 100 s.
inline constexpr double enough_warmup_run_ns = 10e6;

/// run_options::busy_timed as the environment asks: WINNOW_BUSY=timed (or unset) or untimed (the rule
/// before busy time was measured, to compare the same build both ways); another value is a usage error.
[[nodiscard]] bool busy_in_timed_runs();

/// The samples' statistics (the median of an even count is the mean of the middle two).
[[nodiscard]] stats summarize(std::vector<double> samples);

struct measurement {
  std::vector<phase_stats> phases; ///< in the order the algorithm marked them
  stats total;                     ///< sum of the phases, per repetition
  stats wall;                      ///< host wall time around run + stop, per repetition
  std::size_t samples = 0;         ///< timed repetitions made
  int warmup_runs = 0;             ///< untimed repetitions made
  double warmup_ran_ns = 0;        ///< and the wall time they took
  std::string timer;               ///< timer::clock() of the timer used
  compaction_output output;        ///< result() after the last repetition (none with check_place::device)
  double runs_ns = 0;              ///< host wall time of the warm-up and timed repetitions
  double result_ns = 0;            ///< and of result()
  /// How it warmed up: "settle" (run_options::device has no clock), "nvml", or "nvml+device" (this
  /// measurement also warmed the device up for the process); "+heat" when a wait for the clock ran
  /// run_options::heat.
  std::string warmup_rule;
  std::size_t discarded = 0; ///< timed samples thrown away: taken below the throttle threshold
  double sm_mhz_min = 0;     ///< the SM clock over the kept samples (before and after each) [MHz]; 0: not read
  double sm_mhz_max = 0;
  double sm_mhz_peak = 0;     ///< the device's maximum SM clock [MHz]; 0: no clock
  bool clock_gave_up = false; ///< the clock stayed below the threshold for all of settle_ns: samples kept as they came
};

/// Whether warm-up runs, their totals in order, still get faster: the median of the latest `window`
/// runs (at least 3) beats the median of the `window` before them by more than 2 %. Fewer than two
/// windows of runs say nothing: false. measure() takes the runs of the last 250 ms as the window
/// (at most half of the runs so far).
[[nodiscard]] bool still_settling(const std::vector<double>& totals, std::size_t window);

/// Steps 3-5 of the lifecycle (prepare must have been called).
[[nodiscard]] measurement measure(algorithm& a, const run_options& options);

/// Everything one case needs: the workload and its reference, generated once and shared by all
/// algorithms of a sweep.
struct prepared_case {
  workload w;
  std::vector<std::uint32_t> expected;
  /// What the backends keep for the case (device_copies.hpp): their device copies of the input and
  /// of `expected`, and the host's removal mask; shared by copies of the case.
  std::shared_ptr<device_copies> copies = std::make_shared<device_copies>();
};

/// w with its reference; a removal case's mask (removed_mask.hpp), made for the reference, is kept
/// among the copies for the records' checks.
[[nodiscard]] prepared_case prepare_case(workload w);
/// Keeps the storage of c's stream, removal list and reference for the next case's (host_memory.hpp),
/// leaving them empty: a bench calls it when the case's last record has run.
void recycle(prepared_case& c) noexcept;

/// The whole lifecycle for one (algorithm, params, case), as a record — the one place that catches
/// per case: an unavailable backend and `unavailable` from prepare or run give a skipped record with
/// the reason; any other failure (a failed API call, a wrong count) a record that is not verified,
/// with "error: …" as its mismatch, and a lost context one with "context lost: …" (lost_context()
/// then says so: nothing more runs on that API in this process). Usage errors (bad parameters)
/// propagate.
[[nodiscard]] record run_case(const registry& reg, const algorithm_entry& entry, const params& p,
                              const prepared_case& c, const run_options& options);

/// The mismatch of a record whose run lost its API's context (winnow::context_lost) starts so.
inline constexpr std::string_view context_lost_prefix = "context lost: ";
/// The record's run lost its API's context: the process must not run that API again.
[[nodiscard]] bool lost_context(const record& r);

/// The record of a case that could not be made at all (too large for this machine, say): skipped
/// with `why`, for every algorithm that would have run on it.
[[nodiscard]] record skipped_case(const algorithm_entry& entry, const params& p, const std::string& spec,
                                  std::uint64_t n, const std::string& why, const run_options& options);

} // namespace winnow
