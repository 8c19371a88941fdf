// Redzone's own invariants on the GPU (Bontes & Gain 2024, §4.5), beyond the conformance suite's
// result check: Lemma 4.1 (one mark per removal inside the red zone), Lemma 4.2 (as many source as
// destination orphans in total, not per batch), kept items outside the red zone never move, and
// the extremes of k and r.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <set>

#include "winnow/backends.hpp"
#include "winnow/corpus.hpp"
#include "need_device.hpp"
#include "winnow/cuda/device.hpp"
#include "winnow/cuda/redzone.hpp"
#include "winnow/error.hpp"
#include "winnow/harness.hpp"
#include "winnow/redzone_pairs.hpp"

// Private headers of winnow::cuda (tests may look inside).
#include "../../cuda/src/case_input.hpp"
#include "../../cuda/src/context.hpp"

namespace winnow::cuda {
namespace {

struct variant {
  const char* name;
  params p;
};

/// redzone1, and redzone2 with Alg. 2 as written, with every §6 optimization, with small batches
/// (many batches: phase 3's load balancing does real work), with R sorted before Alg. 2, and with
/// order=bitmap (sorted R, holes paired in address order: no orphans, zone entries counted by the fill).
std::vector<variant> variants() {
  return {{"redzone1", {}},
          {"redzone2", {{"early", "off"}, {"shared", "off"}, {"prefetch", "off"}}},
          {"redzone2", {{"early", "on"}, {"shared", "on"}, {"prefetch", "on"}}},
          {"redzone2", {{"early", "off"}, {"shared", "on"}, {"batch", "100"}}},
          {"redzone2", {{"early", "on"}, {"shared", "off"}, {"prefetch", "on"}, {"batch", "37"}}},
          {"redzone2", {{"order", "sort"}}},
          {"redzone2", {{"order", "bitmap"}}}};
}

std::string describe(const variant& v) {
  std::string s = v.name;
  for (const auto& [key, value] : v.p) s += " " + key + "=" + value;
  return s;
}

std::uint64_t sum(const std::vector<std::uint32_t>& v) { return std::accumulate(v.begin(), v.end(), std::uint64_t{0}); }

std::size_t zone_removals(const workload& w) {
  const std::size_t z = w.size() - w.removals.size();
  return static_cast<std::size_t>(std::count_if(w.removals.begin(), w.removals.end(), [&](auto i) { return i >= z; }));
}

void expect_compacted(const workload& w, const redzone_report& out, const std::string& what) {
  const std::size_t z = w.size() - w.removals.size();
  const std::set<std::uint32_t> removed(w.removals.begin(), w.removals.end());
  std::vector<std::uint32_t> kept;
  for (std::size_t i = 0; i < w.size(); ++i)
    if (!removed.contains(static_cast<std::uint32_t>(i))) kept.push_back(w.data[i]);
  ASSERT_EQ(out.a.size(), w.size()) << what;
  std::vector<std::uint32_t> got(out.a.begin(), out.a.begin() + static_cast<std::ptrdiff_t>(z));
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, kept) << what << ": A[0, z) must hold exactly the kept items";
  for (std::size_t i = 0; i < z; ++i)
    if (!removed.contains(static_cast<std::uint32_t>(i))) {
      ASSERT_EQ(out.a[i], w.data[i]) << what << ": a kept item outside the red zone moved, at " << i;
    }
}

TEST(cuda_redzone, lemmas_hold_for_every_share_of_removals_in_the_red_zone) {
  WINNOW_NEED_DEVICE();
  for (const char* r : {"0", "0.25", "0.5", "0.75", "1"}) {
    const workload w = generate(std::string("removal:100000:k=0.1:r=") + r);
    for (const auto& v : variants()) {
      const std::string what = describe(v) + " r=" + r;
      const redzone_report out = run_redzone(v.name, w, v.p);
      EXPECT_EQ(out.zone_marks, zone_removals(w)) << what << " (Lemma 4.1: |R_d| = |Z_d|)";
      EXPECT_EQ(sum(out.source_orphans), sum(out.destination_orphans)) << what << " (Lemma 4.2: |Z'| = |R'|)";
      if (std::string(r) == "0") {
        EXPECT_EQ(sum(out.source_orphans), 0u) << what << ": no red-zone removal, no orphan";
      }
      expect_compacted(w, out, what);
    }
  }
}

TEST(cuda_redzone, orphan_counts_differ_per_batch_so_phase_3_must_balance) {
  WINNOW_NEED_DEVICE();
  const workload w = generate("removal:100000:k=0.3:r=0.5");
  const redzone_report out = run_redzone("redzone2", w, {{"batch", "1000"}, {"early", "off"}, {"shared", "off"}});
  ASSERT_EQ(out.source_orphans.size(), 30u);
  EXPECT_NE(out.source_orphans, out.destination_orphans) << "only the totals are expected to agree";
  EXPECT_EQ(sum(out.source_orphans), sum(out.destination_orphans));
  expect_compacted(w, out, "batch=1000");
}

TEST(cuda_redzone, extreme_k) {
  WINNOW_NEED_DEVICE();
  // k = 0, 1, n − 1, n on a stream that is not a multiple of any tile; tiny streams; gains.
  for (const char* spec : {"removal:1000:k=0", "removal:1000:k=0.001", "removal:1000:k=0.999", "removal:1000:k=1",
                           "removal:1:k=1", "removal:2:k=0.5", "removal:100003:k=0.99999",
                           // §4.6: gains appended (all of A removed; many gains in the red zone)
                           "removal:1000:k=1:g=0.25", "removal:100003:k=0.3:g=0.1"})
    for (const auto& v : variants()) {
      const workload w = generate(spec);
      const std::string what = describe(v) + " " + spec;
      const redzone_report out = run_redzone(v.name, w, v.p);
      expect_compacted(w, out, what);
      EXPECT_EQ(sum(out.source_orphans), sum(out.destination_orphans)) << what;
    }
}

TEST(cuda_redzone, adds_and_removes_in_one_operation_and_records_o_of_j_plus_k_traffic) {
  WINNOW_NEED_DEVICE();
  // §4.6 through the registry, as bench runs it: the run appends the gains (phase `append`), then
  // Redzone runs over A + G, and the record states j + k words of traffic, not n: a million-element
  // stream with a thousand gains and removals must count tens of KB, where one pass over A would be
  // 4 MB. The bound, 4 (j + 10 k) bytes, holds for every variant (R sorted: a histogram and up to four
  // digit passes; order=bitmap). This checks the traffic the record states (the model the bandwidth
  // figures divide by), not what the kernels touch: device memory cannot be guarded page by page as
  // the CPU's implementation is in redzone.touches_only_the_red_zone_and_the_holes.
  // redzone2's record of the same case without gains has no append phase.
  const auto& reg = all_backends();
  for (const char* spec : {"removal:1000003:k=0.001:g=0.001", "removal:1000:k=1:g=0.25", "removal:1000:k=0:g=0.5"}) {
    prepared_case c = prepare_case(generate(spec));
    const std::uint64_t j = c.w.gains, k = c.w.removals.size();
    for (const auto& v : variants()) {
      const std::string what = describe(v) + " " + spec;
      const record r = run_case(reg, reg.find(std::string("cuda/") + v.name), v.p, c, {1, 2, false});
      EXPECT_TRUE(r.verified) << what << ": " << r.mismatch;
      EXPECT_EQ(r.kept, c.w.size() - k) << what;
      ASSERT_FALSE(r.phases.empty()) << what;
      EXPECT_EQ(r.phases.front().name, "append") << what;
      EXPECT_GE(r.bytes_written, 4 * j) << what;
      EXPECT_LE(r.bytes_read, 4 * (j + 10 * k)) << what << ": O(j + k), not O(n)";
      EXPECT_LE(r.bytes_written, 4 * (j + 10 * k)) << what << ": O(j + k), not O(n)";
    }
  }
  prepared_case plain = prepare_case(generate("removal:1000003:k=0.001"));
  const record r = run_case(reg, reg.find("cuda/redzone2"), {}, plain, {0, 1, false});
  EXPECT_TRUE(r.verified) << r.mismatch;
  ASSERT_FALSE(r.phases.empty());
  EXPECT_NE(r.phases.front().name, "append");
}

TEST(cuda_redzone, auto_order_and_batch_say_what_they_chose) {
  WINNOW_NEED_DEVICE();
  // auto orders R (bitmap) where k >= 10 % or the stream is over 4x the L2, else runs the paper's
  // fill; the record's `chosen` says which (reports read it), a given order and batch choose nothing.
  const auto& reg = all_backends();
  const std::vector<std::pair<const char*, const char*>> cases = {{"removal:100003:k=0.02", "off"},
                                                                  {"removal:100003:k=0.2", "bitmap"}};
  for (const auto& [spec, fill] : cases) {
    prepared_case c = prepare_case(generate(spec));
    const record r = run_case(reg, reg.find("cuda/redzone2"), {{"order", "auto"}}, c, {0, 1, false});
    EXPECT_TRUE(r.verified) << spec << ": " << r.mismatch;
    EXPECT_EQ(r.chosen.at("order"), fill) << spec;
    const bool ordered =
        std::any_of(r.phases.begin(), r.phases.end(), [](const auto& ph) { return ph.name == "order"; });
    EXPECT_EQ(ordered, std::string(fill) == "bitmap") << spec;
    // batch=0 (the default): the paper's fill says the batch this device's SMs got; the bitmap fill has none.
    EXPECT_EQ(r.chosen.contains("batch"), std::string(fill) == "off") << spec;
    if (r.chosen.contains("batch")) { EXPECT_GT(std::stoul(r.chosen.at("batch")), 0u) << spec; }
    const record given =
        run_case(reg, reg.find("cuda/redzone2"), {{"order", fill}, {"batch", "256"}}, c, {0, 1, false});
    EXPECT_TRUE(given.chosen.empty()) << spec;
  }
}

TEST(cuda_redzone, more_batches_than_removals) {
  WINNOW_NEED_DEVICE();
  const workload w = generate("removal:50:k=0.1");
  expect_compacted(w, run_redzone("redzone2", w, {{"batch", "1"}}), "batch=1 (5 batches of one item)");
}

TEST(cuda_redzone, large_red_zone_spans_many_tiles_and_shared_flushes) {
  WINNOW_NEED_DEVICE();
  // k = 50 %, r = 50 %: orphans by the hundred thousand, more than the shared lists hold per block.
  const workload w = generate("removal:1000000:k=0.5:r=0.5");
  for (const auto& v : variants()) {
    const redzone_report out = run_redzone(v.name, w, v.p);
    EXPECT_EQ(sum(out.source_orphans), sum(out.destination_orphans)) << describe(v);
    expect_compacted(w, out, describe(v));
  }
}

TEST(cuda_redzone, duplicate_removals_break_the_orphan_invariant_loudly) {
  WINNOW_NEED_DEVICE();
  workload w;
  w.spec = "hand-made";
  w.removal_list = true;
  w.data = {1, 2, 3, 4, 5, 6, 7, 8};
  w.removals = {7, 7, 1, 2};
  for (const auto& v : variants()) {
    try {
      (void)run_redzone(v.name, w, v.p);
      FAIL() << describe(v) << ": duplicates in R were not reported";
    } catch (const error& e) { EXPECT_NE(std::string(e.what()).find("duplicates?"), std::string::npos) << e.what(); }
  }
}

TEST(cuda_redzone, index_past_the_stream_is_refused_before_any_kernel) {
  WINNOW_NEED_DEVICE();
  workload w;
  w.spec = "hand-made";
  w.removal_list = true;
  w.data = {1, 2, 3, 4};
  w.removals = {9};
  try {
    (void)run_redzone("redzone2", w, {});
    FAIL() << "an index ≥ n was accepted";
  } catch (const error& e) { EXPECT_NE(std::string(e.what()).find("removal index 9"), std::string::npos) << e.what(); }
}

// The traffic model's pairs, counted on the device from the case's input there (what every record
// of a removal case uses), equal the host's count: every share of R in the zone, the extremes of k,
// gains after A, a uniform list, and a list no chunk of a warp's width divides.
TEST(cuda_redzone, pairs_counted_on_the_device_equal_the_hosts) {
  WINNOW_NEED_DEVICE();
  const cudaStream_t s = context::get().stream();
  for (const char* spec :
       {"removal:100000:k=0.1:r=0", "removal:100000:k=0.1:r=0.5", "removal:100000:k=0.1:r=1", "removal:1000:k=0",
        "removal:1000:k=0.001", "removal:1000:k=1", "removal:1:k=1", "removal:100003:k=0.3:g=0.1",
        "removal:1000003:k=0.5:r=uniform", "removal:4099:k=0.37:r=0.25"}) {
    const workload w = generate(spec);
    const case_input in(w, s);
    const redzone_pairs host = count_redzone_pairs(w), device = count_redzone_pairs(in, w.size(), s);
    EXPECT_EQ(device.zone, host.zone) << spec;
    EXPECT_EQ(device.hole_kept, host.hole_kept) << spec;
    EXPECT_EQ(device.hole_removed, host.hole_removed) << spec;
    EXPECT_EQ(device.zone_kept, host.zone_kept) << spec;
  }
}

} // namespace
} // namespace winnow::cuda
