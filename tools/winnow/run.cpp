#include <iostream>

#include "commands.hpp"
#include "memory.hpp"
#include "results_folder.hpp"
#include "table.hpp"
#include "winnow/backends.hpp"
#include "winnow/corpus.hpp"
#include "winnow/error.hpp"
#include "winnow/reference.hpp"

namespace winnow::cli {

/// The per-phase table that `run` prints and `bench` does not.
std::string phase_table(const record& r) {
  table t({"phase", "median", "min", "max"});
  for (const auto& p : r.phases) t.add({p.name, format_ns(p.ns.median), format_ns(p.ns.min), format_ns(p.ns.max)});
  t.add({"total", format_ns(r.total.median), format_ns(r.total.min), format_ns(r.total.max)});
  t.add({"wall", format_ns(r.wall.median), format_ns(r.wall.min), format_ns(r.wall.max)});
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

  prepared_case c{generate(spec), {}};
  c.expected = reference_compact(c.w);
  const record r = run_case(reg, entry, given, c, a.options);

  std::cout << r.algorithm << "  " << to_string(r.parameters) << "\n"
            << "case    " << r.spec << "  (n = " << r.n << ", removed " << r.removals << ", kept " << r.valid << ")\n";
  if (r.skipped) {
    std::cout << "skipped: " << *r.skipped << "\n";
  } else {
    std::cout << "device  " << r.device << " — " << r.driver << "\n"
              << "reps    " << r.reps << " after " << r.warmup << " warm-up (and ≥ " << r.warmup_ns / 1e6 << " ms)"
              << (r.cold ? ", cold" : "") << "\n\n"
              << phase_table(r) << "\n"
              << "bytes   " << r.bytes_read << " read, " << r.bytes_written << " written → "
              << format_bandwidth(static_cast<double>(r.bytes_read + r.bytes_written), r.total.median)
              << " at the median total\n"
              << "result  " << (r.verified ? "verified" : "WRONG: " + r.mismatch) << "\n";
  }
  if (a.out_given) {
    if (a.out.ends_with(".csv")) write_csv(a.out, {r});
    else write_jsonl(a.out, {r});
    std::cout << "record  " << a.out << "\n";
  }
  return r.skipped || !r.verified ? 1 : 0;
}

} // namespace winnow::cli
