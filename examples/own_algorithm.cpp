// An algorithm of the caller's own, registered beside winnow's CPU references and run through the
// same harness (warm-up, repetitions, per-phase statistics) and the same check against the
// reference on every conformance case. Usage: own_algorithm [records.jsonl]
#include <algorithm>
#include <iostream>

#include "winnow/corpus.hpp"
#include "winnow/harness.hpp"
#include "winnow/registry.hpp"

namespace {

/// Stable two-pass compaction: count the kept elements, then copy them into a buffer of that size.
/// Two phases, so the harness reports each.
class count_then_copy final : public winnow::algorithm {
public:
  void prepare(const winnow::workload& w, const winnow::param_set&, const winnow::prepare_options&) override {
    m_in = w.marked(); // removal-list cases too: payload 0 at every removed index
  }
  void run(winnow::timer& t) override {
    t.phase("count");
    const auto kept =
        static_cast<std::size_t>(std::count_if(m_in.begin(), m_in.end(), [](std::uint32_t x) { return x != 0; }));
    t.phase("copy");
    m_out.resize(kept);
    std::copy_if(m_in.begin(), m_in.end(), m_out.begin(), [](std::uint32_t x) { return x != 0; });
  }
  winnow::compaction_output result() override { return {m_out, m_in}; }
  winnow::traffic bytes_moved() const override { return {2 * 4 * m_in.size(), 4 * m_out.size(), 0}; }
  void flush_caches() override {} // nothing of its own stays cached between repetitions

private:
  std::vector<std::uint32_t> m_in, m_out;
};

} // namespace

int main(int argc, char** argv) {
  winnow::registry reg;
  winnow::cpu::register_backend(reg);
  winnow::backend mine;
  mine.api = "mine";
  mine.summary = "an algorithm of this example's own";
  mine.unavailable_reason = [] { return std::optional<std::string>(); };
  mine.device = [] { return winnow::device_info{"host CPU", "example"}; };
  mine.algorithms = {
      {.info = {.api = "mine", .name = "count_then_copy", .summary = "count, then copy_if", .stable = true},
       .make = [] { return std::make_unique<count_then_copy>(); }}};
  reg.add(std::move(mine));

  std::vector<winnow::record> records;
  int failures = 0;
  for (const auto& spec : winnow::conformance_cases()) {
    const winnow::prepared_case c = winnow::prepare_case(winnow::generate(spec));
    for (const char* name : {"mine/count_then_copy", "cpu/sequential"}) {
      winnow::record r = winnow::run_case(reg, reg.find(name), {}, c, {.warmup = 1, .reps = 3});
      if (!r.verified) {
        std::cout << name << " " << spec << ": WRONG: " << r.mismatch << "\n";
        ++failures;
      }
      records.push_back(std::move(r));
    }
  }
  // The largest case's phases, as `winnow run` would show them.
  const winnow::record& big = records[records.size() - 2];
  std::cout << big.algorithm << " on " << big.spec << ":";
  for (const auto& p : big.phases) std::cout << " " << p.name << " " << p.ns.median / 1e3 << " µs";
  std::cout << " (noise " << big.total.noise() * 100 << " %)\n";
  std::cout << records.size() / 2 << " conformance cases, " << failures << " wrong\n";
  if (argc > 1) winnow::write_jsonl(argv[1], records);
  return failures ? 1 : 0;
}
