#include "winnow/harness.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "winnow/error.hpp"
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
  const double before = summarize({end - static_cast<std::ptrdiff_t>(2 * window), end - static_cast<std::ptrdiff_t>(window)}).median;
  return latest < 0.98 * before;
}

measurement measure(algorithm& a, const run_options& options) {
  if (options.reps < 1 || options.warmup < 0) throw usage_error("harness: reps must be ≥ 1 and warmup ≥ 0");
  if (!(options.max_noise >= 0) || !(options.timeout_ns > 0)) throw usage_error("harness: max_noise must be ≥ 0 and timeout > 0");
  using clock = std::chrono::steady_clock;
  // Phase samples by name, in the order names first appear; a name marked twice in one run adds up.
  std::vector<std::pair<std::string, std::vector<double>>> by_phase;
  std::vector<double> totals, walls;
  auto t = a.make_timer();
  // Untimed warm-up: at least `warmup` repetitions and at least `warmup_ns` of wall time, then on
  // while the runs still get faster (GPU clocks still climbing), for at most `settle_ns` more.
  const auto warm_start = clock::now();
  std::vector<double> warm_totals, warm_ends; // per warm-up run: total [ns], and when it ended [ns since warm_start]
  const auto warming = [&] {
    if (warm_totals.size() < static_cast<std::size_t>(options.warmup) || ns_since(warm_start) < options.warmup_ns) return true;
    if (warm_ends.empty() || ns_since(warm_start) >= options.warmup_ns + options.settle_ns) return false;
    const double now = warm_ends.back();
    const auto recent = std::count_if(warm_ends.begin(), warm_ends.end(), [&](double e) { return e > now - settle_window_ns; });
    return still_settling(warm_totals, std::min<std::size_t>(static_cast<std::size_t>(recent), warm_totals.size() / 2));
  };
  while (warming()) {
    a.reset();
    if (options.cold) a.flush_caches();
    t->start();
    a.run(*t);
    t->stop();
    double total = 0;
    for (const auto& ph : t->read()) total += ph.ns;
    warm_totals.push_back(total);
    warm_ends.push_back(ns_since(warm_start));
  }
  const double warm_ns = ns_since(warm_start);
  // `reps` repetitions, then (with max_noise) more until the totals are quiet enough or time is up.
  const auto timed_start = clock::now();
  const auto more = [&] {
    if (totals.size() < static_cast<std::size_t>(options.reps)) return true;
    if (options.max_noise <= 0) return false;
    if (ns_since(timed_start) >= options.timeout_ns) return false;
    return summarize(totals).noise() > options.max_noise;
  };
  while (more()) {
    a.reset();
    if (options.cold) a.flush_caches();
    const auto w0 = clock::now();
    t->start();
    a.run(*t);
    t->stop();
    const auto w1 = clock::now();
    // Read back after the run, never during it: GPU timers resolve their queries here.
    double total = 0;
    std::vector<std::pair<std::string, double>> this_rep;
    for (const auto& ph : t->read()) {
      total += ph.ns;
      auto it = std::find_if(this_rep.begin(), this_rep.end(), [&](const auto& p) { return p.first == ph.name; });
      if (it == this_rep.end()) this_rep.emplace_back(ph.name, ph.ns);
      else it->second += ph.ns;
    }
    for (const auto& [name, ns] : this_rep) {
      auto it = std::find_if(by_phase.begin(), by_phase.end(), [&](const auto& p) { return p.first == name; });
      if (it == by_phase.end()) by_phase.emplace_back(name, std::vector<double>{ns});
      else it->second.push_back(ns);
    }
    totals.push_back(total);
    walls.push_back(std::chrono::duration<double, std::nano>(w1 - w0).count());
  }
  measurement m;
  for (auto& [name, samples] : by_phase) m.phases.push_back({name, summarize(std::move(samples))});
  m.samples = totals.size();
  m.warmup_runs = static_cast<int>(warm_totals.size());
  m.warmup_ran_ns = warm_ns;
  m.timer = t->clock();
  m.total = summarize(std::move(totals));
  m.wall = summarize(std::move(walls));
  m.runs_ns = ns_since(warm_start);
  const auto read_start = clock::now();
  m.output = a.result();
  m.result_ns = ns_since(read_start);
  return m;
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
  r.timeout_s = options.max_noise > 0 ? options.timeout_ns / 1e9 : 0;
  r.cold = options.cold;
  r.debug = debug_enabled();
  return r;
}

} // namespace

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
    a->prepare(c.w, resolve_params(entry.info, p), options.prepare);
    r.host_ns.emplace_back("prepare", ns_since(t0));
    measurement m = measure(*a, options);
    r.host_ns.insert(r.host_ns.end(), {{"runs", m.runs_ns}, {"result", m.result_ns}});
    r.chosen = a->chosen(); // after the runs: an algorithm may choose as it runs (the adaptive one)
    r.notes = a->notes();
    const traffic bytes = a->bytes_moved();
    r.bytes_read = bytes.read;
    r.bytes_written = bytes.written;
    r.launches = bytes.launches;
    r.reps = static_cast<int>(m.samples);
    r.warmup_runs = m.warmup_runs;
    r.warmup_ran_ns = m.warmup_ran_ns;
    r.timer = m.timer;
    r.phases = std::move(m.phases);
    r.total = m.total;
    r.wall = m.wall;
    r.kept = m.output.values.size();
    t0 = clock::now();
    const verdict v = verify(c.w, c.expected, m.output, entry.info.stable);
    r.verified = v.ok;
    r.mismatch = v.message;
    r.host_ns.emplace_back("check", ns_since(t0));
    t0 = clock::now();
    a.reset();
    m.output = {};
    r.host_ns.emplace_back("release", ns_since(t0));
  } catch (const unavailable& e) {
    r.skipped = e.what();
  } catch (const usage_error&) {
    throw;
  } catch (const std::exception& e) {
    r.verified = false;
    r.mismatch = std::string("error: ") + e.what();
  }
  return r;
}

} // namespace winnow
