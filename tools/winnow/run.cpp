#include <iostream>

#include "commands.hpp"
#include "memory.hpp"
#include "results_folder.hpp"
#include "table.hpp"
#include "winnow/backends.hpp"
#include "winnow/corpus.hpp"
#include "winnow/error.hpp"
#include "winnow/harness.hpp"

namespace winnow::cli {

/// The per-phase table that `run` prints and `bench` does not.
std::string phase_table(const record& r) {
  table t({"phase", "median", "min", "max", "stddev"});
  const auto row = [&](const std::string& name, const stats& s) {
    t.add({name, format_ns(s.median), format_ns(s.min), format_ns(s.max), format_ns(s.stddev)});
  };
  for (const auto& p : r.phases) row(p.name, p.ns);
  row("total", r.total);
  row("wall", r.wall);
  return t.str();
}

int run_command(const run_args& a) {
  const registry& reg = all_backends();
  const algorithm_entry& entry = reg.find(a.algo);
  const params given = parse_params(a.params);
  (void)resolve_params(entry.info, given); // usage errors before the case is made
  if (a.out_given) check_output_file("--out", a.out, {".jsonl", ".csv"});
  const case_spec spec = parse_spec(a.spec);
  // The device's limits first (a GL texture holds at most GL_MAX_TEXTURE_SIZE² words), then the
  // host's memory: neither costs generating the case.
  if (!reg.unavailable_reason(entry.info.api))
    if (const auto why = entry.make()->refuses(elements_of(spec))) throw usage_error(to_string(spec) + ": " + *why);
  check_fits(spec);

  const prepared_case c = prepare_case(generate(spec));
  // What runs, before it runs: a long measurement is not a silent one.
  std::cout << entry.info.full_name() << "  " << to_string(resolve_params(entry.info, given).texts()) << "\n"
            << "case    " << c.w.spec << "  (n = " << c.w.size() << ", removed " << c.w.size() - c.expected.size()
            << ", kept " << c.expected.size() << ")\n"
            << std::flush;
  const record r = run_case(reg, entry, given, c, a.options);

  if (r.skipped) {
    std::cout << "skipped: " << *r.skipped << "\n";
  } else {
    std::cout << "device  " << r.device << " — " << r.driver << "\n";
    if (!r.chosen.empty())
      std::cout << "chosen  " << to_string(r.chosen)
                << "  (what the run settled: parameters given as auto, or the adaptive algorithm's choice)\n";
    if (!r.notes.empty())
      std::cout << "weighed " << to_string(r.notes) << "  (what the algorithm weighed to decide how to run)\n";
    std::cout << "reps    " << r.reps << " after " << r.warmup_runs << " warm-up runs in "
              << format_ns(r.warmup_ran_ns);
    if (r.warmup_rule == "settle") {
      std::cout << " (asked: ≥ " << r.warmup << " and ≥ " << r.warmup_ns / 1e6
                << " ms, then on while the runs still got faster)";
      // Why the clock was not watched, where the backend said which device it is.
      if (const watched_device* d = watch(reg.device(r.api).identity); d && !d->clock)
        std::cout << "\nclock   not watched: " << d->why;
    } else
      std::cout << " (" << r.warmup << " asked, then on until the SM clock was up"
                << (r.warmup_rule == "nvml+device" ? "; the device's warm-up" : "") << ")\n"
                << "clock   SM " << r.sm_mhz_min << "-" << r.sm_mhz_max << " MHz of " << r.sm_mhz_peak
                << " over the timed runs (NVML), " << r.discarded << " discarded below the throttle threshold"
                << (r.clock_gave_up ? ", GAVE UP waiting for the clock" : "");
    std::cout << (r.cold ? ", cold" : "") << "\n"
              << "noise   " << format_percent(r.total.noise()) << " (stddev / mean of the total; IQR "
              << format_ns(r.total.q1) << " … " << format_ns(r.total.q3) << ")"
              << (r.max_noise > 0
                      ? r.total.noise() <= r.max_noise ? ", under --max-noise" : ", OVER --max-noise at the --timeout"
                      : "")
              << "\n\n"
              << phase_table(r) << "\n"
              << "bytes   " << r.bytes_read << " read, " << r.bytes_written << " written → "
              << format_bandwidth(static_cast<double>(r.bytes_read + r.bytes_written), r.total.median)
              << " at the median total\n"
              << "result  " << (r.verified ? "verified" : "WRONG: " + r.mismatch)
              << (r.checked_on.empty() ? "" : " (checked on the " + r.checked_on + ")") << "\n";
  }
  if (a.out_given) {
    if (a.out.ends_with(".csv")) write_csv(a.out, {r});
    else write_jsonl(a.out, {r});
    std::cout << "record  " << a.out << "\n";
  }
  return r.skipped || !r.verified ? 1 : 0;
}

} // namespace winnow::cli
