// Redzone's own invariants (Bontes & Gain 2024, §4.5), beyond the conformance suite's result check.
#include <gtest/gtest.h>
#include <oneapi/tbb/task_arena.h>

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <set>

#include "winnow/corpus.hpp"
#include "winnow/cpu/redzone.hpp"
#include "winnow/error.hpp"
#include "winnow/harness.hpp"
#include "winnow/redzone_pairs.hpp"
#include "winnow/removed_mask.hpp"
#include "winnow/registry.hpp"

namespace winnow::cpu {
namespace {

struct outcome {
  std::vector<std::uint32_t> a;
  redzone_report report;
};

outcome run(const workload& w, std::size_t batches, int threads = 2) {
  outcome o{w.data, {}};
  std::vector<std::uint32_t> r = w.removals;
  oneapi::tbb::task_arena arena(threads);
  arena.execute([&] { o.report = redzone_compact(o.a, r, batches); });
  return o;
}

std::size_t sum(const std::vector<std::size_t>& v) {
  std::size_t s = 0;
  for (auto x : v) s += x;
  return s;
}

void expect_compacted(const workload& w, const outcome& o, const std::string& what) {
  const std::size_t z = w.size() - w.removals.size();
  const std::set<std::uint32_t> removed(w.removals.begin(), w.removals.end());
  std::vector<std::uint32_t> kept;
  for (std::size_t i = 0; i < w.size(); ++i)
    if (!removed.contains(static_cast<std::uint32_t>(i))) kept.push_back(w.data[i]);
  std::vector<std::uint32_t> got(o.a.begin(), o.a.begin() + static_cast<std::ptrdiff_t>(z));
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, kept) << what << ": A[0, z) must hold exactly the kept items";
  for (std::size_t i = 0; i < z; ++i)
    if (!removed.contains(static_cast<std::uint32_t>(i))) {
      ASSERT_EQ(o.a[i], w.data[i]) << what << ": kept item outside the red zone moved, at " << i;
    }
}

TEST(redzone, orphans_match_in_total_and_marks_match_zone_removals) {
  for (const char* r : {"0", "0.25", "0.5", "0.75", "1"})
    for (std::size_t batches : {1u, 3u, 64u}) {
      const workload w = generate(std::string("removal:100000:k=0.1:r=") + r);
      const outcome o = run(w, batches);
      const std::string what = std::string("r=") + r + " batches=" + std::to_string(batches);
      const std::size_t z = w.size() - w.removals.size();
      const auto zone =
          static_cast<std::size_t>(std::count_if(w.removals.begin(), w.removals.end(), [&](auto i) { return i >= z; }));
      EXPECT_EQ(o.report.zone_removals, zone) << what << " (Lemma 4.1: |R_d| = |Z_d|)";
      EXPECT_EQ(sum(o.report.source_orphans), sum(o.report.destination_orphans)) << what << " (Lemma 4.2: |Z'| = |R'|)";
      expect_compacted(w, o, what);
    }
}

TEST(redzone, the_pair_counts_of_the_traffic_models_are_what_the_algorithm_meets) {
  // count_redzone_pairs (all cores, chunks of 2^16) against a one-core count and against the orphans
  // Alg. 2 itself creates: Z[i] kept with R[i] inside the zone is a source orphan, Z[i] removed with
  // R[i] outside a destination orphan.
  for (const char* spec :
       {"removal:3000017:k=0.37:seed=3", "removal:100003:k=0.5:r=1", "removal:100003:k=0.3:r=0",
        "removal:100003:k=0.3:r=0.5", "removal:1000:k=1", "removal:1000:k=0", "removal:210000:k=0.5:g=0.1"}) {
    const workload w = generate(spec);
    const std::size_t k = w.removals.size(), z = w.size() - k;
    std::vector<bool> zone_removed(k, false);
    for (const std::uint32_t r : w.removals)
      if (r >= z) zone_removed[r - z] = true;
    redzone_pairs one_core;
    for (std::size_t i = 0; i < k; ++i) {
      const bool inside = w.removals[i] >= z;
      one_core.zone += inside;
      one_core.hole_kept += !inside && !zone_removed[i];
      one_core.hole_removed += !inside && zone_removed[i];
      one_core.zone_kept += inside && !zone_removed[i];
    }
    const redzone_pairs p = count_redzone_pairs(w);
    const redzone_pairs from_mask = count_redzone_pairs(w, removed_mask(w)); // the case's, in bench
    EXPECT_EQ(from_mask.hole_kept, p.hole_kept) << spec;
    EXPECT_EQ(from_mask.zone_kept, p.zone_kept) << spec;
    EXPECT_EQ(p.zone, one_core.zone) << spec;
    EXPECT_EQ(p.hole_kept, one_core.hole_kept) << spec;
    EXPECT_EQ(p.hole_removed, one_core.hole_removed) << spec;
    EXPECT_EQ(p.zone_kept, one_core.zone_kept) << spec;
    EXPECT_EQ(p.zone + p.hole_kept + p.hole_removed, k) << spec;
    // Not against the algorithm: with gains it runs over A + G (these counts are of the stream as
    // given), and with every item removed it has nothing to move and says so with no counts.
    if (w.gains != 0 || k == w.size()) continue;
    const outcome o = run(w, 3);
    EXPECT_EQ(o.report.zone_removals, p.zone) << spec;
    EXPECT_EQ(sum(o.report.source_orphans), p.zone_kept) << spec;
    EXPECT_EQ(sum(o.report.destination_orphans), p.hole_removed) << spec;
  }
}

TEST(redzone, orphan_counts_differ_per_batch_so_phase_3_must_balance) {
  const outcome o = run(generate("removal:100000:k=0.3:r=0.5"), 16);
  EXPECT_NE(o.report.source_orphans, o.report.destination_orphans)
      << "the per-batch counts are expected to differ (only their totals agree)";
}

TEST(redzone, no_orphans_when_every_removal_lies_outside_the_zone) {
  // r = 0: no red-zone item is removed, so every source is kept and no destination lies in the zone.
  const outcome o = run(generate("removal:10000:k=0.2:r=0"), 4);
  EXPECT_EQ(sum(o.report.source_orphans), 0u);
  EXPECT_EQ(o.report.zone_removals, 0u);
}

TEST(redzone, trivial_and_extreme_k) {
  for (const char* spec : {"removal:1000:k=0", "removal:1000:k=0.001", "removal:1000:k=0.999", "removal:1000:k=1",
                           "removal:1:k=1", "removal:2:k=0.5"}) {
    const workload w = generate(spec);
    expect_compacted(w, run(w, 7), spec);
  }
}

TEST(redzone, more_batches_than_removals) {
  const workload w = generate("removal:50:k=0.1");
  expect_compacted(w, run(w, 1000), "1000 batches for 5 removals");
}

TEST(redzone, duplicate_removals_break_the_orphan_invariant_loudly) {
  workload w;
  w.data = {1, 2, 3, 4, 5, 6, 7, 8};
  w.removals = {7, 7, 1, 2};
  EXPECT_THROW((void)run(w, 1), error);
}

/// A + G in an anonymous mapping where every page Redzone has no business touching is made
/// inaccessible: pages wholly below the red zone that hold no removal index. An algorithm that read
/// or wrote O(n + j) words (a pass over A or over the gains) would fault there.
class guarded_stream {
public:
  guarded_stream(std::size_t words, std::span<const std::uint32_t> r, std::size_t z)
      : m_page(static_cast<std::size_t>(sysconf(_SC_PAGESIZE))), m_words(words) {
    m_bytes = (4 * words + m_page - 1) / m_page * m_page;
    void* p = mmap(nullptr, m_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw error("guarded_stream: mmap failed");
    m_base = static_cast<std::uint32_t*>(p);
    for (std::size_t i = 0; i < words; ++i) m_base[i] = static_cast<std::uint32_t>(i + 1); // non-zero payloads
    std::vector<bool> needed(m_bytes / m_page, false);
    for (const auto i : r) needed[4 * std::size_t{i} / m_page] = true;
    for (std::size_t pg = 4 * z / m_page; pg < needed.size(); ++pg) needed[pg] = true;
    for (std::size_t pg = 0; pg < needed.size(); ++pg)
      if (!needed[pg]) {
        ++m_guarded;
        if (mprotect(reinterpret_cast<char*>(m_base) + pg * m_page, m_page, PROT_NONE) != 0)
          throw error("guarded_stream: mprotect failed");
      }
  }
  guarded_stream(const guarded_stream&) = delete;
  guarded_stream& operator=(const guarded_stream&) = delete;
  ~guarded_stream() { munmap(m_base, m_bytes); }

  [[nodiscard]] std::span<std::uint32_t> span() { return {m_base, m_words}; }
  [[nodiscard]] std::size_t pages() const { return m_bytes / m_page; }
  [[nodiscard]] std::size_t guarded() const { return m_guarded; }

private:
  std::size_t m_page, m_words, m_bytes = 0, m_guarded = 0;
  std::uint32_t* m_base = nullptr;
};

TEST(redzone, touches_only_the_red_zone_and_the_holes) {
  // §4.6's O(j + k), shown by the pages the run may touch rather than by the traffic model: 16M
  // words of A (64 MiB) plus j gains appended after it, k removals; every other page is PROT_NONE.
  // Some shapes put half of R in the red zone, so that phase 1 marks, phase 2 leaves orphans and
  // phase 3 pairs them over several batches. Each shape runs in a child (a death-test fork), so a
  // fault fails the test with a message instead of ending the test binary.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const std::size_t n = std::size_t{1} << 24;
  // Few enough removals that most pages stay guarded on any page size (16384 pages of 4 KiB).
  const std::size_t many = n * 4 / static_cast<std::size_t>(sysconf(_SC_PAGESIZE)) / 16;
  struct shape {
    std::size_t j, k, batches;
    bool half_in_zone;
  };
  for (const shape sh : std::vector<shape>{{0, 64, 1, false},
                                           {32, 64, 1, false},
                                           {5000, 64, 3, false},
                                           {32, many, 4, false},
                                           {32, many, 4, true},
                                           {0, many, 1, true},
                                           {5000, many, 7, true}}) {
    const std::size_t j = sh.j, k = sh.k, total = n + j, z = total - k;
    std::mt19937_64 rng(k * 31 + j + sh.half_in_zone);
    std::set<std::uint32_t> picked;
    if (sh.half_in_zone)
      while (picked.size() < k / 2) picked.insert(static_cast<std::uint32_t>(z + rng() % k));
    while (picked.size() < k) picked.insert(static_cast<std::uint32_t>(rng() % total));
    std::vector<std::uint32_t> r(picked.begin(), picked.end());
    std::shuffle(r.begin(), r.end(), rng);
    const std::string what = "j=" + std::to_string(j) + " k=" + std::to_string(k) +
                             " batches=" + std::to_string(sh.batches) +
                             (sh.half_in_zone ? " (half of R in the zone)" : "");
    EXPECT_EXIT(
        {
          guarded_stream a(total, r, z);
          // Most of the stream is guarded, or the test could not tell O(k) from O(n).
          if (4 * a.guarded() < 3 * a.pages()) std::_Exit(3);
          std::vector<std::uint32_t> rr = r;
          oneapi::tbb::task_arena arena(2);
          redzone_report report;
          arena.execute([&] { report = redzone_compact(a.span(), rr, sh.batches); });
          if (sh.half_in_zone && (report.zone_removals == 0 || sum(report.source_orphans) == 0)) std::_Exit(5);
          // Every hole below z now holds a different kept item of the red zone (payload = index + 1).
          // Only the holes are read back: the rest is guarded.
          const std::set<std::uint32_t> removed(r.begin(), r.end());
          std::set<std::uint32_t> moved;
          for (const auto i : r) {
            if (i >= z) continue;
            const std::uint32_t v = a.span()[i];
            if (v == 0 || v - 1 < z || removed.count(v - 1) || !moved.insert(v).second) std::_Exit(4);
          }
          std::_Exit(0);
        },
        ::testing::ExitedWithCode(0), "")
        << what
        << ": exit 3: too few pages guarded; 4: a hole holds no kept red-zone item, or one twice; 5: "
           "no zone removal or no orphan where half of R is in the zone; a signal: the run touched a page "
           "outside the red zone and the holes (not O(j + k))";
  }
}

TEST(redzone, adds_and_removes_in_one_operation) {
  // §4.6: the gains are appended by the run (timed as `append`), then Alg. 2 runs over A + G; the
  // traffic model counts j + k words, not n.
  registry reg;
  cpu::register_backend(reg);
  for (const char* spec : {"removal:100003:k=0.02:g=0.01", "removal:1000:k=1:g=0.25", "removal:1000:k=0:g=0.5"}) {
    prepared_case c = prepare_case(generate(spec));
    const record r = run_case(reg, reg.find("cpu/redzone"), {}, c, {0, 2, false});
    EXPECT_TRUE(r.verified) << spec << ": " << r.mismatch;
    EXPECT_EQ(r.kept, c.w.size() - c.w.removals.size()) << spec;
    ASSERT_FALSE(r.phases.empty());
    EXPECT_EQ(r.phases.front().name, "append") << spec;
    EXPECT_GE(r.bytes_written, 4 * c.w.gains) << spec;
    const std::uint64_t j = c.w.gains, k = c.w.removals.size();
    EXPECT_LE(r.bytes_read, 4 * (j + 5 * k)) << spec << ": O(j + k), not O(n)"; // G; R twice, a[z+i], R', Z'
  }
  // Without gains there is no append phase: the published algorithm's phases are unchanged.
  prepared_case plain = prepare_case(generate("removal:100003:k=0.02"));
  const record r = run_case(reg, reg.find("cpu/redzone"), {}, plain, {0, 1, false});
  EXPECT_TRUE(r.verified);
  EXPECT_EQ(r.phases.front().name, "mark");
}

} // namespace
} // namespace winnow::cpu
