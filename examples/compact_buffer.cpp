// Compacts a buffer of the caller's own with winnow's algorithms, through the public API: the
// registry of every backend this installation was built with, and the lifecycle every algorithm
// follows (prepare, reset, run, result). Usage: compact_buffer [api/name ...]  (default: cpu/par_remove_if gl/horn)
#include <cstdint>
#include <iostream>
#include <numeric>
#include <vector>

#include "winnow/backends.hpp"
#include "winnow/corpus.hpp"
#include "winnow/error.hpp"
#include "winnow/reference.hpp"

int main(int argc, char** argv) {
  std::vector<std::string> names(argv + 1, argv + argc);
  if (names.empty()) names = {"cpu/par_remove_if", "gl/horn"};

  // The caller's data: 0 marks an element to drop. Here every third one of 1000 particle ids.
  std::vector<std::uint32_t> ids(1000);
  std::iota(ids.begin(), ids.end(), 7u);
  for (std::size_t i = 0; i < ids.size(); i += 3) ids[i] = 0;
  const winnow::workload w = winnow::workload_from(ids, "particles");
  const std::vector<std::uint32_t> expected = winnow::reference_compact(w);

  const winnow::registry& reg = winnow::all_backends();
  int failures = 0;
  for (const auto& name : names) {
    try {
      const winnow::algorithm_entry& entry = reg.find(name);
      if (auto why = reg.unavailable_reason(entry.info.api)) {
        std::cout << name << ": not available here: " << *why << "\n";
        ++failures;
        continue;
      }
      auto algo = entry.make();
      algo->prepare(w, winnow::resolve_params(entry.info, {}), {}); // default parameters; uploads
      algo->reset();                                                // the input in place, before every run
      auto timer = algo->make_timer();                              // the API's own clock
      timer->start();
      algo->run(*timer);
      timer->stop();
      const winnow::compaction_output out = algo->result();
      double ns = 0;
      for (const auto& phase : timer->read()) ns += phase.ns;
      // winnow's own check: element by element for a stable algorithm, as a multiset otherwise.
      const winnow::verdict v = winnow::verify(w, expected, out, entry.info.stable);
      std::cout << name << " on " << reg.device(entry.info.api).device << ": kept " << out.values.size() << " of "
                << w.size() << " in " << ns / 1e3 << " µs, first " << (out.values.empty() ? 0 : out.values.front())
                << (v.ok ? ", as the reference\n" : ", WRONG: " + v.message + "\n");
      failures += !v.ok;
    } catch (const winnow::error& e) {
      std::cout << name << ": " << e.what() << "\n";
      ++failures;
    }
  }
  return failures ? 1 : 0;
}
