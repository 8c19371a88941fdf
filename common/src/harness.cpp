#include "winnow/harness.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <mutex>
#include <string_view>

#include "winnow/error.hpp"
#include "winnow/host_memory.hpp"
#include "winnow/reference.hpp"
#include "winnow/removed_mask.hpp"
#include "winnow/settings.hpp"

namespace winnow {

namespace {

/// The q-quantile of sorted samples, linear between order statistics.
double quantile(const std::vector<double>& sorted, double q) {
  const double at = q * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<std::size_t>(at);
  const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (at - static_cast<double>(lo));
}

} // namespace

stats summarize(std::vector<double> samples) {
  if (samples.empty()) return {};
  std::sort(samples.begin(), samples.end());
  const auto n = static_cast<double>(samples.size());
  double sum = 0;
  for (double x : samples) sum += x;
  const double mean = sum / n;
  double squares = 0;
  for (double x : samples) squares += (x - mean) * (x - mean);
  stats s;
  s.median = quantile(samples, 0.5);
  s.min = samples.front();
  s.max = samples.back();
  s.mean = mean;
  s.stddev = samples.size() > 1 ? std::sqrt(squares / (n - 1)) : 0;
  s.q1 = quantile(samples, 0.25);
  s.q3 = quantile(samples, 0.75);
  return s;
}

/// The span of warm-up runs compared with the span before it: the H200's clock steps came 100-200 ms apart.
constexpr double settle_window_ns = 250e6;

bool still_settling(const std::vector<double>& totals, std::size_t window) {
  window = std::max<std::size_t>(window, 3);
  if (totals.size() < 2 * window) return false;
  const auto end = totals.end();
  const double latest = summarize({end - static_cast<std::ptrdiff_t>(window), end}).median;
  const double before =
      summarize({end - static_cast<std::ptrdiff_t>(2 * window), end - static_cast<std::ptrdiff_t>(window)}).median;
  return latest < 0.98 * before;
}

bool busy_in_timed_runs() {
  const char* v = std::getenv("WINNOW_BUSY");
  if (!v || std::string_view(v).empty() || std::string_view(v) == "timed") return true;
  if (std::string_view(v) == "untimed") return false;
  throw usage_error("WINNOW_BUSY must be timed or untimed, not '" + std::string(v) + "'");
}

/// How long the clock must have stopped rising for the device warm-up to end below the maximum clock.
constexpr double clock_hold_ns = 100e6;
/// The share of its wall time a wait for the clock must keep the device running for its running out to
/// show where the clock is (watched_device::gave_up); below it, only that its runs were too short
/// (watched_device::idle_run_ns).
constexpr double min_conclusive_busy = 0.5;
/// How much longer than the runs of a wait that ran out with the device mostly idle a record's runs
/// must be for it to warm the device up again.
constexpr double rewarm_run_ratio = 4;
/// How long each run_options::heat keeps the device busy between two readings of its clock [ns].
constexpr double heat_slice_ns = 20e6;

measurement measure(algorithm& a, const run_options& options) {
  if (options.reps < 1 || options.warmup < 0) throw usage_error("harness: reps must be ≥ 1 and warmup ≥ 0");
  if (!(options.max_noise >= 0) || !(options.timeout_ns > 0))
    throw usage_error("harness: max_noise must be ≥ 0 and timeout > 0");
  if (!(options.throttle_threshold >= 0 && options.throttle_threshold <= 1) ||
      !(options.settled_fraction >= 0 && options.settled_fraction <= 1))
    throw usage_error("harness: throttle_threshold and settled_fraction must be in [0, 1]");
  if (!(options.busy_ns >= 0) || !std::isfinite(options.busy_ns))
    throw usage_error("harness: busy_ns must be a finite number ≥ 0");
  using clock = std::chrono::steady_clock;
  measurement m;
  // Phase samples by name, in the order names first appear; a name marked twice in one run adds up.
  std::vector<std::pair<std::string, std::vector<double>>> by_phase;
  std::vector<double> totals, walls;
  auto t = a.make_timer();
  double untimed_wall_ns = 0;                          // the last untimed run's, reset and read included
  double untimed_device_sum = 0, untimed_wall_sum = 0; // over all of this record's untimed runs
  const auto untimed_run = [&] {
    const auto w0 = clock::now();
    a.reset();
    if (options.cold) a.flush_caches();
    t->start();
    a.run(*t);
    t->stop();
    untimed_wall_ns = ns_since(w0);
    double total = 0;
    for (const auto& ph : t->read()) total += ph.ns;
    untimed_device_sum += total;
    untimed_wall_sum += untimed_wall_ns;
    return total;
  };
  // The record's runs so far kept the device busy less than min_conclusive_busy of their wall time,
  // and the backend has heat to do it instead (run_options::heat).
  const auto heat_instead = [&] {
    return options.heat && untimed_wall_sum > 0 && untimed_device_sum < min_conclusive_busy * untimed_wall_sum;
  };
  const auto warm_start = clock::now();
  std::vector<double> warm_totals; // per warm-up run: total [ns]
  watched_device* dev = options.device && options.device->clock ? options.device : nullptr;
  // The clock a record must run at: nvbench's threshold of the maximum, and once the device warm-up
  // has settled, settled_fraction of where it settled.
  const double threshold_mhz = dev ? options.throttle_threshold * dev->clock->max_sm_mhz() : 0;
  const auto record_floor = [&] { return std::max(threshold_mhz, options.settled_fraction * dev->settled_mhz); };
  double floor_mhz = dev ? record_floor() : 0;
  double vain_peak_mhz = 0; // the highest clock a wait that ran out of time read
  // Untimed runs until the SM clock reads at least floor_mhz (and, to `settle`, has not risen for
  // clock_hold_ns or is at its maximum, where it then counts as settled), for at most `budget_ns`:
  // whether it got there. An unreadable clock has nothing to wait for.
  bool heated = false; // a wait for the clock ran options.heat
  const auto warm_until = [&](bool settle, double budget_ns) {
    const auto start = clock::now();
    double device_ns = 0, runs_ns = 0; // the device time of this wait's heat and runs, and of its runs
    std::size_t runs = 0;
    double level = 0, peak = 0;
    auto level_since = start;
    for (;;) {
      const auto mhz = dev->clock->sm_mhz();
      if (!mhz) return true;
      peak = std::max(peak, *mhz);
      if (*mhz < floor_mhz || *mhz > 1.01 * level) {
        level = *mhz;
        level_since = clock::now();
      }
      if (*mhz >= floor_mhz &&
          (!settle || *mhz >= 0.99 * dev->clock->max_sm_mhz() || ns_since(level_since) >= clock_hold_ns)) {
        if (settle) dev->settled_mhz = dev->warmed_mhz = *mhz;
        return true;
      }
      if (ns_since(start) >= budget_ns) {
        vain_peak_mhz = std::max(vain_peak_mhz, peak);
        const double run_ns = runs_ns / static_cast<double>(std::max<std::size_t>(1, runs));
        // A wait whose runs kept the device busy shows where its clock is: given up for good when it
        // was the device's warm-up. One whose runs left it mostly idle shows only that runs this
        // short cannot bring the clock up (watched_device::idle_run_ns).
        if (device_ns < min_conclusive_busy * ns_since(start)) dev->idle_run_ns = std::max(dev->idle_run_ns, run_ns);
        else if (settle) dev->gave_up = true;
        return false;
      }
      // The record's runs warm the device, unless they leave it mostly idle and the backend has heat.
      if (heat_instead()) {
        device_ns += options.heat(std::min(heat_slice_ns, budget_ns - ns_since(start)));
        heated = true;
      } else {
        warm_totals.push_back(untimed_run());
        device_ns += warm_totals.back();
        runs_ns += warm_totals.back();
        ++runs;
      }
    }
  };
  double recovery_left_ns = options.settle_ns; // this record's waits for the clock, together
  // Stop waiting for the clock: this record waited settle_ns, or the device never reached the
  // threshold in its warm-up (clocks locked low, say), after which no record waits for it.
  // A device whose warm-up ran out with it mostly idle is not waited for by records of runs as short.
  // With heat, a record's runs need not keep the device busy: it waits whatever runs came before.
  bool gave_up = dev && (dev->gave_up || (dev->idle_run_ns > 0 && !options.heat));
  if (!dev) {
    // Untimed warm-up: at least `warmup` repetitions and at least `warmup_ns` of wall time, then on
    // while the runs still get faster (GPU clocks still climbing), for at most `settle_ns` more.
    m.warmup_rule = "settle";
    std::vector<double> warm_ends; // per warm-up run: when it ended [ns since warm_start]
    const auto warming = [&] {
      if (warm_totals.size() < static_cast<std::size_t>(options.warmup) || ns_since(warm_start) < options.warmup_ns)
        return true;
      if (warm_ends.empty() || ns_since(warm_start) >= options.warmup_ns + options.settle_ns) return false;
      const double now = warm_ends.back();
      const auto recent =
          std::count_if(warm_ends.begin(), warm_ends.end(), [&](double e) { return e > now - settle_window_ns; });
      return still_settling(warm_totals,
                            std::min<std::size_t>(static_cast<std::size_t>(recent), warm_totals.size() / 2));
    };
    while (warming()) {
      warm_totals.push_back(untimed_run());
      warm_ends.push_back(ns_since(warm_start));
    }
  } else {
    // The record's own first-run costs (pipelines, allocation, page faults, caches), then the device's
    // clock: warmed up once per process, and brought back to the threshold before every record.
    m.warmup_rule = "nvml";
    m.sm_mhz_peak = dev->clock->max_sm_mhz();
    for (int i = 0; i < options.warmup; ++i) {
      warm_totals.push_back(untimed_run());
      if (warm_totals.back() >= enough_warmup_run_ns) break; // nvbench makes one
    }
    // Busy for busy_ns with the timed runs to come: so short a record does not leave the device idle
    // enough for the driver to lower its clock (run_options::busy_ns). Timed runs fill it, unless
    // WINNOW_BUSY=untimed asks for the untimed runs of before (to measure the same build both ways).
    if (options.busy_ns > 0 && !options.busy_timed) {
      if (warm_totals.empty()) warm_totals.push_back(untimed_run());
      while (ns_since(warm_start) + options.reps * untimed_wall_ns < options.busy_ns)
        warm_totals.push_back(untimed_run());
    }
    // The device's warm-up: once per process, and again for a record of runs rewarm_run_ratio times
    // as long as those of a warm-up that ran out with the device mostly idle.
    const bool rewarm = dev->idle_run_ns > 0 && !dev->gave_up && !warm_totals.empty() &&
                        (heat_instead() || warm_totals.back() >= rewarm_run_ratio * dev->idle_run_ns);
    if (!dev->warmed || rewarm) {
      m.warmup_rule = "nvml+device";
      dev->warmed = true;
      // A warm-up that never reached the threshold shows the clock cannot (locked low, say) only if
      // its runs kept the device busy: 1M-element Vulkan runs on the H200 (17 µs of each 66 µs) took
      // its clock from idle to 1230 MHz in 3 s and no further, and with the device given up the
      // 2^26-2^28 records after them ran unwaited-for at 345-495 MHz, 3.5-5× slow. Runs that left it
      // idle leave the warm-up to a record of longer runs; records of runs as short do not wait.
      dev->idle_run_ns = 0;
      gave_up = !warm_until(true, options.settle_ns);
      floor_mhz = record_floor();
    } else if (!gave_up) {
      const auto r0 = clock::now();
      if (!warm_until(false, recovery_left_ns)) gave_up = true;
      recovery_left_ns -= ns_since(r0);
    }
  }
  m.warmup_ran_ns = ns_since(warm_start);
  // `reps` repetitions, then (with max_noise) more until the totals are quiet enough or time is up.
  const auto timed_start = clock::now();
  double timed_ns = 0; // the kept runs' totals, added up
  const auto more = [&] {
    if (totals.size() < static_cast<std::size_t>(options.reps)) return true;
    const bool short_of_time =
        timed_ns < options.min_time_ns || (dev && options.busy_timed && ns_since(warm_start) < options.busy_ns);
    if (!short_of_time && options.max_noise <= 0) return false;
    if (ns_since(timed_start) >= options.timeout_ns) return false;
    return short_of_time || summarize(totals).noise() > options.max_noise;
  };
  std::vector<double> kept_mhz;
  constexpr double unread = -1;
  double last_after = unread; // the reading after the last kept sample: the next one's before
  while (more()) {
    a.reset();
    if (options.cold) a.flush_caches();
    // The clock around the run [MHz]; unread: none, or the reading failed. (Plain doubles: GCC 12
    // takes an optional<double> here for maybe uninitialized.) One reading a sample: the one after a
    // kept sample is the next one's before; between them only the host's work (the timer's read, the
    // bookkeeping, the reset), no wait for the clock and no cache flush.
    const double before = last_after != unread ? last_after : dev ? dev->clock->sm_mhz().value_or(unread) : unread;
    const auto w0 = clock::now();
    t->start();
    a.run(*t);
    t->stop();
    const auto w1 = clock::now();
    const double after = dev ? dev->clock->sm_mhz().value_or(unread) : unread;
    // Read back after the run, never during it: GPU timers resolve their queries here.
    double total = 0;
    std::vector<std::pair<std::string, double>> this_rep;
    for (const auto& ph : t->read()) {
      total += ph.ns;
      auto it = std::find_if(this_rep.begin(), this_rep.end(), [&](const auto& p) { return p.first == ph.name; });
      if (it == this_rep.end()) this_rep.emplace_back(ph.name, ph.ns);
      else it->second += ph.ns;
    }
    const double wall = std::chrono::duration<double, std::nano>(w1 - w0).count();
    // A sample taken below the threshold (before or after it) is thrown away, and the clock brought
    // back before the next; the sample's own time counts against the wait, so this ends.
    const bool throttled = (before != unread && before < floor_mhz) || (after != unread && after < floor_mhz);
    last_after = options.cold ? unread : after; // a cache flush comes between
    if (dev && throttled && !gave_up) {
      last_after = unread; // the wait for the clock comes between
      ++m.discarded;
      const auto r0 = clock::now();
      if (!warm_until(false, recovery_left_ns - wall)) gave_up = true;
      recovery_left_ns -= wall + ns_since(r0);
      continue;
    }
    if (before != unread) kept_mhz.push_back(before);
    if (after != unread) kept_mhz.push_back(after);
    for (const auto& [name, ns] : this_rep) {
      auto it = std::find_if(by_phase.begin(), by_phase.end(), [&n = name](const auto& p) { return p.first == n; });
      if (it == by_phase.end()) by_phase.emplace_back(name, std::vector<double>{ns});
      else it->second.push_back(ns);
    }
    totals.push_back(total);
    timed_ns += total;
    walls.push_back(wall);
  }
  for (auto& [name, samples] : by_phase) m.phases.push_back({name, summarize(std::move(samples))});
  if (!kept_mhz.empty()) {
    m.sm_mhz_min = *std::min_element(kept_mhz.begin(), kept_mhz.end());
    m.sm_mhz_max = *std::max_element(kept_mhz.begin(), kept_mhz.end());
  }
  m.clock_gave_up = gave_up;
  if (heated) m.warmup_rule += "+heat";
  // Where the records after this one hold to. A record that waited in vain: the device has settled
  // lower since its warm-up (a power or thermal limit, say), and they hold to where its wait got, not
  // wait for what it no longer reaches; a record whose kept samples read higher brings it back up,
  // as far as where the warm-up settled.
  if (dev && gave_up && !dev->gave_up && vain_peak_mhz > 0)
    dev->settled_mhz = std::min(dev->settled_mhz, vain_peak_mhz);
  else if (dev && !gave_up) dev->settled_mhz = std::min(dev->warmed_mhz, std::max(dev->settled_mhz, m.sm_mhz_max));
  m.samples = totals.size();
  m.warmup_runs = static_cast<int>(warm_totals.size());
  m.timer = t->clock();
  m.total = summarize(std::move(totals));
  m.wall = summarize(std::move(walls));
  m.runs_ns = ns_since(warm_start);
  if (options.check == check_place::device) return m; // run_case checks where the output lies
  const auto read_start = clock::now();
  m.output = a.result();
  m.result_ns = ns_since(read_start);
  return m;
}

watched_device* watch(const std::optional<device_identity>& id) {
  if (!id || id->empty()) return nullptr;
  static std::mutex guard;
  // Never destroyed: records of a process share them, and NVML must outlive every reading.
  static auto& devices = *new std::vector<std::pair<std::string, std::unique_ptr<watched_device>>>;
  const std::lock_guard lock(guard);
  const std::string key = id->uuid + "|" + id->pci_bus_id;
  for (auto& [k, d] : devices)
    if (k == key) return d.get();
  // WINNOW_NVML=0 keeps the settle rule on an NVIDIA GPU too: the same build measured both ways.
  nvml_opened opened = env_flag("WINNOW_NVML").value_or(true)
                           ? open_nvml_clock(*id)
                           : nvml_opened{nullptr, "winnow nvml: not used (WINNOW_NVML=0)"};
  auto d = std::make_unique<watched_device>();
  d->clock = std::move(opened.clock);
  d->why = std::move(opened.why);
  devices.emplace_back(key, std::move(d));
  return devices.back().second.get();
}

namespace {

/// What every record of (entry, params, case) says before anything runs.
record start_record(const algorithm_entry& entry, const params& p, const std::string& spec, std::uint64_t n,
                    const run_options& options) {
  record r;
  stamp(r);
  r.api = entry.info.api;
  r.algorithm = entry.info.full_name();
  r.parameters = resolve_params(entry.info, p).texts();
  r.spec = spec;
  r.n = n;
  r.stable = entry.info.stable;
  r.in_place = entry.info.in_place;
  r.warmup = options.warmup;
  r.warmup_ns = options.warmup_ns;
  r.reps = options.reps;
  r.max_noise = options.max_noise;
  r.min_time_ns = options.min_time_ns;
  r.timeout_s = options.max_noise > 0 || options.min_time_ns > 0 ? options.timeout_ns / 1e9 : 0;
  r.cold = options.cold;
  r.debug = debug_enabled();
  return r;
}

/// Step 5 and the verdict, where `where` asks: on the device when the backend can, reading the output
/// back only to name a difference; else read back (measure() did, with check_place::host) and
/// verified on the host.
void check(algorithm& a, bool stable, const prepared_case& c, check_place where, measurement& m, record& r) {
  using clock = std::chrono::steady_clock;
  auto t0 = clock::now();
  std::optional<bool> same;
  double check_ns = 0;
  if (where == check_place::device) {
    same = a.matches_on_device({c.w, c.expected, *c.copies}, stable);
    check_ns = ns_since(t0);
    if (same && *same) {
      r.host_ns.emplace_back("check", check_ns);
      r.checked_on = "device";
      r.verified = true;
      r.kept = c.expected.size(); // the count is part of the check
      return;
    }
    t0 = clock::now(); // measure() left the output on the device
    m.output = a.result();
    m.result_ns = ns_since(t0);
  }
  r.host_ns.emplace_back("result", m.result_ns);
  t0 = clock::now();
  // An out-of-place algorithm's input is checked against the case's removal mask, made once a case;
  // an unstable output is compared on what moved, which the mask tells (verify.hpp).
  const auto removed = m.output.input_after || !stable ? removed_mask(c.w, c.copies.get()) : nullptr;
  const verdict v = verify(c.w, c.expected, m.output, stable,
                           removed ? std::span<const std::uint8_t>(*removed) : std::span<const std::uint8_t>());
  r.host_ns.emplace_back("check", check_ns + ns_since(t0));
  r.checked_on = same ? "device" : "host";
  r.kept = m.output.values.size();
  r.verified = v.ok;
  r.mismatch = v.message;
  // The device saw a difference the host does not: a fault of one of the two checks, never a pass.
  if (same && v.ok) {
    r.verified = false;
    r.mismatch = "the check on the device found a difference that the check on the host does not: a fault of a check";
  }
}

} // namespace

prepared_case prepare_case(workload w) {
  prepared_case c{std::move(w), {}};
  c.expected = c.w.removal_list ? reference_compact(c.w, *removed_mask(c.w, c.copies.get())) : reference_compact(c.w);
  return c;
}

void recycle(prepared_case& c) noexcept {
  recycle(c.w.data);
  recycle(c.w.removals);
  recycle(c.expected);
}

record skipped_case(const algorithm_entry& entry, const params& p, const std::string& spec, std::uint64_t n,
                    const std::string& why, const run_options& options) {
  record r = start_record(entry, p, spec, n, options);
  r.skipped = why;
  return r;
}

record run_case(const registry& reg, const algorithm_entry& entry, const params& p, const prepared_case& c,
                const run_options& options) {
  record r = start_record(entry, p, c.w.spec, c.w.size(), options);
  r.removals = c.w.removals.size();
  r.valid = c.expected.size();
  if (auto reason = reg.unavailable_reason(r.api)) {
    r.skipped = *reason;
    return r;
  }
  const device_info dev = reg.device(r.api);
  r.device = dev.device;
  r.driver = dev.driver;
  try {
    using clock = std::chrono::steady_clock;
    // Each step is kept as it finishes: a record whose run failed still says where its time went.
    auto t0 = clock::now();
    auto a = entry.make();
    prepare_options shared = options.prepare;
    shared.copies = c.copies.get();
    a->prepare(c.w, resolve_params(entry.info, p), shared);
    r.host_ns.emplace_back("prepare", ns_since(t0));
    // The device's clock, when the backend says which device it is and NVML can read it.
    run_options watched = options;
    if (!watched.device) watched.device = watch(dev.identity);
    if (!watched.heat) watched.heat = dev.heat;
    measurement m = measure(*a, watched);
    r.host_ns.emplace_back("runs", m.runs_ns);
    r.chosen = a->chosen(); // after the runs: an algorithm may choose as it runs (the adaptive one)
    r.notes = a->notes();
    const traffic bytes = a->bytes_moved();
    r.bytes_read = bytes.read;
    r.bytes_written = bytes.written;
    r.launches = bytes.launches;
    r.reps = static_cast<int>(m.samples);
    r.warmup_runs = m.warmup_runs;
    r.warmup_ran_ns = m.warmup_ran_ns;
    r.warmup_rule = m.warmup_rule;
    if (m.warmup_rule.starts_with("nvml")) {
      r.busy_ns = watched.busy_ns;
      r.busy_timed = watched.busy_timed;
    }
    r.discarded = m.discarded;
    r.sm_mhz_min = m.sm_mhz_min;
    r.sm_mhz_max = m.sm_mhz_max;
    r.sm_mhz_peak = m.sm_mhz_peak;
    r.clock_gave_up = m.clock_gave_up;
    r.timer = m.timer;
    r.phases = std::move(m.phases);
    r.total = m.total;
    r.wall = m.wall;
    check(*a, entry.info.stable, c, options.check, m, r);
    t0 = clock::now();
    a.reset();
    recycle(m.output.values); // for the next record's (host_memory.hpp)
    if (m.output.input_after) recycle(*m.output.input_after);
    r.host_ns.emplace_back("release", ns_since(t0));
  } catch (const unavailable& e) { r.skipped = e.what(); } catch (const usage_error&) {
    throw;
  } catch (const context_lost& e) {
    r.verified = false;
    r.mismatch = std::string(context_lost_prefix) + e.what();
  } catch (const std::exception& e) {
    r.verified = false;
    r.mismatch = std::string("error: ") + e.what();
  }
  return r;
}

bool lost_context(const record& r) { return !r.skipped && !r.verified && r.mismatch.starts_with(context_lost_prefix); }

} // namespace winnow
