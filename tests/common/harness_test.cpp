#include <gtest/gtest.h>

#include <cstdlib>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <thread>

#include "winnow/corpus.hpp"
#include "winnow/error.hpp"
#include "winnow/harness.hpp"
#include "winnow/reference.hpp"
#include "winnow/removed_mask.hpp"

namespace winnow {
namespace {

TEST(harness, summarize_median_min_max) {
  const stats odd = summarize({5, 1, 3});
  EXPECT_EQ(odd.median, 3);
  EXPECT_EQ(odd.min, 1);
  EXPECT_EQ(odd.max, 5);
  EXPECT_EQ(summarize({4, 1, 3, 2}).median, 2.5);
  EXPECT_EQ(summarize({}).median, 0);
}

TEST(harness, summarize_gives_the_spread_quartiles_and_relative_noise) {
  const stats s = summarize({4, 1, 3, 2});
  EXPECT_DOUBLE_EQ(s.mean, 2.5);
  EXPECT_DOUBLE_EQ(s.stddev, std::sqrt(5.0 / 3.0)); // sample standard deviation (n - 1)
  EXPECT_DOUBLE_EQ(s.q1, 1.75);                     // linear between order statistics
  EXPECT_DOUBLE_EQ(s.q3, 3.25);
  EXPECT_DOUBLE_EQ(s.noise(), std::sqrt(5.0 / 3.0) / 2.5);
  const stats one = summarize({7});
  EXPECT_EQ(one.stddev, 0);
  EXPECT_EQ(one.q1, 7);
  EXPECT_EQ(one.noise(), 0);
  EXPECT_EQ(summarize({5, 5, 5}).noise(), 0);
}

/// A timer whose phases last a scripted number of ns, so the statistics are exact.
class scripted_timer final : public timer {
public:
  explicit scripted_timer(int* rep) : m_rep(rep) {}
  void start() override { m_names.clear(); }
  void phase(std::string_view name) override { m_names.emplace_back(name); }
  void stop() override {}
  std::vector<phase_time> read() override {
    std::vector<phase_time> out;
    for (std::size_t i = 0; i < m_names.size(); ++i)
      out.push_back({m_names[i], 100.0 * (*m_rep) + static_cast<double>(i)});
    return out;
  }

private:
  int* m_rep;
  std::vector<std::string> m_names;
};

/// Copies the valid elements; counts lifecycle calls; its "scan" phase is marked twice per run.
class fake final : public algorithm {
public:
  void prepare(const workload& w, const param_set&, const prepare_options&) override { m_w = &w; }
  void reset() override { ++resets; }
  void run(timer& t) override {
    ++m_rep;
    t.phase("scan");
    t.phase("scan");
    t.phase("move");
    m_out = reference_compact(*m_w);
  }
  compaction_output result() override { return {m_out, std::nullopt}; }
  traffic bytes_moved() const override { return {8, 4}; }
  std::unique_ptr<timer> make_timer() override { return std::make_unique<scripted_timer>(&m_rep); }
  void flush_caches() override { ++flushes; }
  int resets = 0, flushes = 0;

private:
  const workload* m_w = nullptr;
  std::vector<std::uint32_t> m_out;
  int m_rep = 0;
};

TEST(harness, warmup_is_dropped_phases_add_up_and_reset_precedes_every_run) {
  workload w;
  w.data = {1, 0, 3};
  fake a;
  a.prepare(w, {}, {});
  const measurement m = measure(a, {2, 3, true});
  EXPECT_EQ(a.resets, 5);
  EXPECT_EQ(a.flushes, 5);
  ASSERT_EQ(m.phases.size(), 2u);
  // Timed reps are runs 3, 4, 5: scan = (100r + 0) + (100r + 1), move = 100r + 2.
  EXPECT_EQ(m.phases[0].name, "scan");
  EXPECT_EQ(m.phases[0].ns.median, 801);
  EXPECT_EQ(m.phases[0].ns.min, 601);
  EXPECT_EQ(m.phases[0].ns.max, 1001);
  EXPECT_EQ(m.phases[1].name, "move");
  EXPECT_EQ(m.phases[1].ns.median, 402);
  EXPECT_EQ(m.total.median, 1203);
  EXPECT_GT(m.wall.min, 0);
  EXPECT_EQ(m.output.values, (std::vector<std::uint32_t>{1, 3}));
}

/// A timer whose run n lasts `script(n)` ns (one phase), for the repeat-until-quiet loop.
class noisy_timer final : public timer {
public:
  noisy_timer(int* rep, std::function<double(int)> script) : m_rep(rep), m_script(std::move(script)) {}
  void start() override {}
  void phase(std::string_view) override {}
  void stop() override {}
  std::vector<phase_time> read() override { return {{"all", m_script(*m_rep)}}; }

private:
  int* m_rep;
  std::function<double(int)> m_script;
};

class scripted final : public algorithm {
public:
  explicit scripted(std::function<double(int)> script) : m_script(std::move(script)) {}
  void prepare(const workload&, const param_set&, const prepare_options&) override {}
  void run(timer& t) override {
    ++m_rep;
    t.phase("all");
  }
  compaction_output result() override { return {}; }
  traffic bytes_moved() const override { return {}; }
  std::unique_ptr<timer> make_timer() override { return std::make_unique<noisy_timer>(&m_rep, m_script); }
  void flush_caches() override {}

private:
  std::function<double(int)> m_script;
  int m_rep = 0;
};

TEST(harness, max_noise_repeats_until_the_totals_are_quiet_and_stops_at_the_timeout) {
  // Runs alternate 100 and 300 ns for the first eight, then stay at 200: the mean stays 200 and the
  // stddev is sqrt(80000 / (n - 1)), at most 30 % of the mean from n = 24 on (n = 23: 30.2 %).
  scripted settles([](int rep) { return rep <= 8 ? (rep % 2 ? 100.0 : 300.0) : 200.0; });
  const measurement m = measure(settles, {.warmup = 0, .reps = 4, .max_noise = 0.3});
  EXPECT_EQ(m.samples, 24u);
  EXPECT_LE(m.total.noise(), 0.3);

  // Never quiet: stops at the timeout, with what it has.
  scripted never([](int rep) { return rep % 2 ? 100.0 : 300.0; });
  run_options bounded{.warmup = 0, .reps = 3, .max_noise = 0.01, .timeout_ns = 20e6};
  const auto t0 = std::chrono::steady_clock::now();
  const measurement n = measure(never, bounded);
  EXPECT_GE(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(20));
  EXPECT_GT(n.samples, 3u);
  EXPECT_GT(n.total.noise(), 0.01);

  // Without max_noise, exactly reps.
  scripted fixed([](int rep) { return rep % 2 ? 100.0 : 300.0; });
  EXPECT_EQ(measure(fixed, {.warmup = 0, .reps = 3}).samples, 3u);
}

TEST(harness, min_time_repeats_until_the_timed_runs_add_up_to_it_and_stops_at_the_timeout) {
  // 250 ns a run: 1000 ns of measured time take 4 runs, more than reps = 2; fewer than reps never.
  scripted quarter([](int) { return 250.0; });
  EXPECT_EQ(measure(quarter, {.warmup = 0, .reps = 2, .min_time_ns = 1000}).samples, 4u);
  scripted again([](int) { return 250.0; });
  EXPECT_EQ(measure(again, {.warmup = 0, .reps = 6, .min_time_ns = 1000}).samples, 6u);
  // A run that measures nothing never adds up: the timeout ends it, with what it has.
  scripted nothing([](int) { return 0.0; });
  const auto t0 = std::chrono::steady_clock::now();
  const measurement m = measure(nothing, {.warmup = 0, .reps = 1, .timeout_ns = 20e6, .min_time_ns = 1000});
  EXPECT_GE(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(20));
  EXPECT_GT(m.samples, 1u);
}

TEST(harness, run_case_records_everything_and_skips_unavailable_backends) {
  registry reg;
  backend b;
  b.api = "fake";
  b.unavailable_reason = [] { return std::optional<std::string>(); };
  b.device = [] { return device_info{"test device", "test driver"}; };
  b.algorithms = {{.info = {.api = "fake", .name = "copy"}, .make = [] { return std::make_unique<fake>(); }}};
  reg.add(b);
  reg.add_unavailable("ghost", "a backend that was not built", "not built: no ghost compiler");

  prepared_case c{{}, {}};
  c.w.spec = "test";
  c.w.data = {1, 0, 3, 0};
  c.w.removals = {1, 3};
  c.expected = {1, 3};
  const record r = run_case(reg, reg.find("fake/copy"), {}, c, {0, 1, false});
  EXPECT_TRUE(r.verified) << r.mismatch;
  EXPECT_EQ(r.device, "test device");
  EXPECT_EQ(r.n, 4u);
  EXPECT_EQ(r.valid, 2u);
  EXPECT_EQ(r.kept, 2u);
  EXPECT_EQ(r.bytes_read, 8u);
  EXPECT_FALSE(r.skipped);
  // run_case times its host steps in order (bench puts the case's making before them).
  std::vector<std::string> steps;
  for (const auto& [step, ns] : r.host_ns) {
    steps.push_back(step);
    EXPECT_GE(ns, 0) << step;
  }
  EXPECT_EQ(steps, (std::vector<std::string>{"prepare", "runs", "result", "check", "release"}));

  algorithm_entry ghost{.info = {.api = "ghost", .name = "x"}, .make = [] { return std::make_unique<fake>(); }};
  const record s = run_case(reg, ghost, {}, c, {0, 1, false});
  ASSERT_TRUE(s.skipped);
  EXPECT_EQ(*s.skipped, "not built: no ghost compiler");
  EXPECT_TRUE(s.host_ns.empty()) << "a record that did not run has no host steps";
}

/// Out of place with a mark phase: hands back its input with payload 0 at the indices it is told.
class marks_its_input final : public algorithm {
public:
  explicit marks_its_input(std::vector<std::uint32_t> marks) : m_marks(std::move(marks)) {}
  void prepare(const workload& w, const param_set&, const prepare_options&) override { m_w = &w; }
  void run(timer& t) override { t.phase("all"); }
  compaction_output result() override {
    std::vector<std::uint32_t> input = m_w->data;
    for (const std::uint32_t i : m_marks) input[i] = 0;
    return {reference_compact(*m_w), std::move(input)};
  }
  traffic bytes_moved() const override { return {}; }
  void flush_caches() override {}

private:
  const workload* m_w = nullptr;
  std::vector<std::uint32_t> m_marks;
};

TEST(harness, a_prepared_case_makes_its_removal_mask_once_and_the_checks_read_it) {
  registry reg;
  backend b;
  b.api = "fake";
  b.unavailable_reason = [] { return std::optional<std::string>(); };
  b.device = [] { return device_info{"test device", "test driver"}; };
  reg.add(b);
  prepared_case c = prepare_case(generate(parse_spec("removal:1000:k=0.1")));
  EXPECT_EQ(c.expected, reference_compact(c.w));
  const std::uint32_t removed = c.w.removals[0];
  std::uint32_t kept = 0;
  while (std::find(c.w.removals.begin(), c.w.removals.end(), kept) != c.w.removals.end()) ++kept;
  const auto run = [&](std::uint32_t mark) {
    const algorithm_entry e{.info = {.api = "fake", .name = "marks"},
                            .make = [mark] { return std::make_unique<marks_its_input>(std::vector{mark}); }};
    return run_case(reg, e, {}, c, {0, 1, false});
  };
  EXPECT_TRUE(run(removed).verified) << "a mark at a removed index";
  const record bad = run(kept);
  EXPECT_FALSE(bad.verified);
  EXPECT_NE(bad.mismatch.find("input[" + std::to_string(kept) + "]"), std::string::npos) << bad.mismatch;
  // The mask was made with the case, from the R it was made with: the checks read that one, not
  // one made again from the list as it is now.
  const std::vector<std::uint8_t> before = removed_mask(c.w);
  c.w.removals.assign(1, kept);
  EXPECT_EQ(*removed_mask(c.w, c.copies.get()), before);
}

/// A backend that checks on its device, scripted: what matches_on_device answers, what result()
/// hands back, and whether result() was called.
class checks_on_device final : public algorithm {
public:
  checks_on_device(std::optional<bool> answer, std::vector<std::uint32_t> out, bool* read_back)
      : m_answer(answer), m_out(std::move(out)), m_read_back(read_back) {}
  void prepare(const workload&, const param_set&, const prepare_options&) override {}
  void run(timer& t) override { t.phase("all"); }
  compaction_output result() override {
    *m_read_back = true;
    return {m_out, std::nullopt};
  }
  std::optional<bool> matches_on_device(const expected_output& e, bool) override {
    EXPECT_EQ(&e.values, &m_expected_seen->expected) << "the case's own expected stream";
    return m_answer;
  }
  traffic bytes_moved() const override { return {}; }
  void flush_caches() override {}
  const prepared_case* m_expected_seen = nullptr;

private:
  std::optional<bool> m_answer;
  std::vector<std::uint32_t> m_out;
  bool* m_read_back;
};

TEST(harness, a_device_check_reads_back_only_to_name_a_difference_and_the_record_says_where_it_checked) {
  prepared_case c{{}, {}};
  c.w.spec = "test";
  c.w.data = {1, 0, 3, 0};
  c.expected = {1, 3};
  struct scenario {
    std::optional<bool> answer;
    std::vector<std::uint32_t> out;
    check_place where;
    bool verified, read_back;
    std::string checked_on, mismatch;
  };
  const std::vector<scenario> scenarios = {
      {true, {}, check_place::device, true, false, "device", ""}, // nothing read back
      {false,
       {1, 4},
       check_place::device,
       false,
       true,
       "device",
       "output[1]: expected 3, got 4 (1 of 2 elements differ)"},
      {false,
       {1, 3},
       check_place::device,
       false,
       true,
       "device",
       "the check on the device found a difference that the check on the host does not: a fault of a check"},
      {std::nullopt, {1, 3}, check_place::device, true, true, "host", ""}, // a backend without a device check
      {true, {1, 3}, check_place::host, true, true, "host", ""},           // --check host: never asked
  };
  for (const scenario& s : scenarios) {
    bool read_back = false;
    registry reg;
    backend b;
    b.api = "fake";
    b.unavailable_reason = [] { return std::optional<std::string>(); };
    b.device = [] { return device_info{"test device", "test driver"}; };
    b.algorithms = {{.info = {.api = "fake", .name = "scripted"}, .make = [&] {
                       auto a = std::make_unique<checks_on_device>(s.answer, s.out, &read_back);
                       a->m_expected_seen = &c;
                       return a;
                     }}};
    reg.add(b);
    const record r = run_case(reg, reg.find("fake/scripted"), {}, c, {.warmup = 0, .reps = 1, .check = s.where});
    SCOPED_TRACE(s.checked_on + " " + s.mismatch);
    EXPECT_EQ(r.verified, s.verified);
    EXPECT_EQ(read_back, s.read_back);
    EXPECT_EQ(r.checked_on, s.checked_on);
    EXPECT_EQ(r.mismatch, s.mismatch);
    if (s.verified) { EXPECT_EQ(r.kept, 2u); }
    std::vector<std::string> steps;
    for (const auto& [step, ns] : r.host_ns) steps.push_back(step);
    EXPECT_EQ(steps, s.read_back ? (std::vector<std::string>{"prepare", "runs", "result", "check", "release"})
                                 : (std::vector<std::string>{"prepare", "runs", "check", "release"}));
  }
}

TEST(harness, prepare_that_finds_no_capability_gives_a_skipped_record) {
  class needs_more final : public algorithm {
  public:
    void prepare(const workload&, const param_set&, const prepare_options&) override {
      throw unavailable("fake: texture of 2^30 texels over the limit 2^28");
    }
    void run(timer&) override {}
    compaction_output result() override { return {}; }
    traffic bytes_moved() const override { return {}; }
    void flush_caches() override {}
  };
  registry reg;
  backend b;
  b.api = "fake";
  reg.add(b);
  algorithm_entry e{.info = {.api = "fake", .name = "big"}, .make = [] { return std::make_unique<needs_more>(); }};
  const record r = run_case(reg, e, {}, prepared_case{}, {0, 1, false});
  ASSERT_TRUE(r.skipped);
  EXPECT_EQ(*r.skipped, "fake: texture of 2^30 texels over the limit 2^28");
}

TEST(harness, a_failure_during_a_run_is_a_failed_record_and_a_wrong_count_is_caught) {
  // One place catches per case: run_case. A failed call becomes "error: …", an algorithm that keeps
  // the wrong number of elements a record whose own count says so.
  class breaks final : public algorithm {
  public:
    explicit breaks(bool throws) : m_throws(throws) {}
    void prepare(const workload& w, const param_set&, const prepare_options&) override { m_w = &w; }
    void run(timer& t) override {
      t.phase("move");
      if (m_throws) throw error("fake: vkQueueSubmit: VK_ERROR_DEVICE_LOST");
    }
    compaction_output result() override { return {{1}, std::nullopt}; } // one element of the two
    traffic bytes_moved() const override { return {}; }
    void flush_caches() override {}

  private:
    bool m_throws;
    const workload* m_w = nullptr;
  };
  registry reg;
  backend b;
  b.api = "fake";
  reg.add(b);
  prepared_case c{{}, {1, 3}};
  c.w.data = {1, 0, 3};
  const algorithm_entry thrower{.info = {.api = "fake", .name = "t"},
                                .make = [] { return std::make_unique<breaks>(true); }};
  const record r = run_case(reg, thrower, {}, c, {0, 1, false});
  EXPECT_FALSE(r.skipped);
  EXPECT_FALSE(r.verified);
  EXPECT_EQ(r.mismatch, "error: fake: vkQueueSubmit: VK_ERROR_DEVICE_LOST");
  ASSERT_EQ(r.host_ns.size(), 1u) << "the steps that finished before the failure";
  EXPECT_EQ(r.host_ns[0].first, "prepare");
  const algorithm_entry short_count{.info = {.api = "fake", .name = "s"},
                                    .make = [] { return std::make_unique<breaks>(false); }};
  const record s = run_case(reg, short_count, {}, c, {0, 1, false});
  EXPECT_FALSE(s.verified);
  EXPECT_EQ(s.valid, 2u) << "the case's valid elements";
  EXPECT_EQ(s.kept, 1u) << "the count the algorithm produced";
}

TEST(harness, a_case_that_cannot_be_made_gives_skipped_records_for_every_algorithm) {
  const algorithm_entry e{.info = {.api = "cpu", .name = "x", .axes = {choice_axis("k", "", "a", {"a", "b"})}},
                          .make = [] { return std::unique_ptr<algorithm>(); }};
  const record r = skipped_case(e, {{"k", "b"}}, "uniform:64G", 1ull << 36, "too large for this machine", {1, 3, true});
  ASSERT_TRUE(r.skipped);
  EXPECT_EQ(*r.skipped, "too large for this machine");
  EXPECT_EQ(r.parameters, (params{{"k", "b"}}));
  EXPECT_EQ(r.spec, "uniform:64G");
  EXPECT_TRUE(r.cold);
  EXPECT_EQ(r.reps, 3);
}

TEST(harness, failed_calls_name_file_line_call_and_error) {
  try {
    throw_call_error("glCheckFramebufferStatus(GL_FRAMEBUFFER)", "GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT");
    FAIL() << "no error";
  } catch (const error& e) {
    EXPECT_TRUE(std::string(e.what()).starts_with("harness_test.cpp:")) << e.what();
    EXPECT_TRUE(std::string(e.what()).ends_with(
        ": glCheckFramebufferStatus(GL_FRAMEBUFFER): GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT"))
        << e.what();
  }
}

TEST(harness, warm_up_lasts_at_least_the_time_asked_for) {
  workload w;
  w.data = {1, 0, 3};
  fake a;
  a.prepare(w, {}, {});
  const auto start = std::chrono::steady_clock::now();
  (void)measure(a, {1, 1, false, 30e6});
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(30));
  EXPECT_GT(a.resets, 2) << "more warm-up repetitions than the count asked for";
}

TEST(harness, bad_repetition_counts_are_usage_errors) {
  fake a;
  EXPECT_THROW((void)measure(a, {0, 0, false}), usage_error);
}

TEST(harness, still_settling_compares_the_latest_window_with_the_one_before) {
  EXPECT_FALSE(still_settling({}, 3));
  EXPECT_FALSE(still_settling({9, 9, 9, 5, 5}, 3)) << "fewer than two windows";
  EXPECT_TRUE(still_settling({9, 9, 9, 5, 5, 5}, 3));
  EXPECT_TRUE(still_settling({100, 100, 100, 100, 97, 97, 97, 97}, 4)) << "3 % faster";
  EXPECT_FALSE(still_settling({100, 100, 100, 100, 99, 99, 99, 99}, 4)) << "1 % is noise";
  EXPECT_FALSE(still_settling({5, 5, 5, 9, 9, 9}, 3)) << "slower is not settling";
  EXPECT_TRUE(still_settling({9, 9, 9, 9, 9, 5, 5}, 1)) << "windows of at least 3: 9 5 5 against 9 9 9";
  EXPECT_FALSE(still_settling({9, 9, 9, 9, 9, 9, 5}, 1))
      << "windows of at least 3: one fast run in 9 9 5 is not a trend";
}

TEST(harness, warm_up_goes_on_while_the_runs_still_get_faster) {
  // Runs fall by 20 ns each for 30 runs (clocks climbing), then stay at 400 ns: the warm-up goes on
  // until the later half of its runs is no faster than the earlier half, so every timed run is 400.
  scripted climbing([](int rep) { return rep <= 30 ? 1000.0 - 20.0 * rep : 400.0; });
  const measurement m = measure(climbing, {.warmup = 6, .reps = 5});
  EXPECT_GT(m.warmup_runs, 60);
  EXPECT_EQ(m.total.max, 400);
  EXPECT_GT(m.warmup_ran_ns, 0);

  // Steady from the start: exactly the warm-up asked for.
  scripted steady([](int) { return 400.0; });
  EXPECT_EQ(measure(steady, {.warmup = 6, .reps = 5}).warmup_runs, 6);

  // Never steady: the warm-up stops settle_ns after its minimum.
  scripted falling([](int rep) { return 1e9 / rep; });
  const auto t0 = std::chrono::steady_clock::now();
  const measurement f = measure(falling, {.warmup = 6, .reps = 2, .settle_ns = 20e6});
  EXPECT_GE(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(20));
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(2));
  EXPECT_GT(f.warmup_runs, 6);
}

/// Counts its runs in `*runs`; run r lasts `device_ns(r)` on the device's timer (100·r ns unless
/// given: the statistics tell which runs were kept), and `ms` of wall time (a record's run on a
/// device, as the host waits for it).
class counted final : public algorithm {
public:
  explicit counted(
      int* runs, int ms = 0, std::function<double(int)> device_ns = [](int r) { return 100.0 * r; })
      : m_runs(runs), m_ms(ms), m_device_ns(std::move(device_ns)) {}
  void prepare(const workload&, const param_set&, const prepare_options&) override {}
  void run(timer& t) override {
    ++*m_runs;
    if (m_ms) std::this_thread::sleep_for(std::chrono::milliseconds(m_ms));
    t.phase("all");
  }
  compaction_output result() override { return {}; }
  traffic bytes_moved() const override { return {}; }
  std::unique_ptr<timer> make_timer() override { return std::make_unique<noisy_timer>(m_runs, m_device_ns); }
  void flush_caches() override {}

private:
  int* m_runs;
  int m_ms;
  std::function<double(int)> m_device_ns;
};

/// An SM clock of 2000 MHz at most that reads `script(runs so far)` MHz: the clock as the runs drive it.
class fake_clock final : public clock_source {
public:
  fake_clock(const int* runs, std::function<double(int)> script) : m_runs(runs), m_script(std::move(script)) {}
  std::optional<double> sm_mhz() override {
    ++reads;
    return m_script(*m_runs);
  }
  double max_sm_mhz() const override { return 2000; }
  int reads = 0; ///< sm_mhz() calls

private:
  const int* m_runs;
  std::function<double(int)> m_script;
};

watched_device device_with(const int* runs, std::function<double(int)> script, bool warmed) {
  watched_device d;
  d.clock = std::make_unique<fake_clock>(runs, std::move(script));
  d.warmed = warmed;
  return d;
}

TEST(harness, with_a_clock_the_device_warms_up_once_per_process_not_every_record) {
  // From idle the clock stays low for 20 runs, then is at its maximum (2000 MHz).
  int runs = 0;
  watched_device dev = device_with(
      &runs, [](int r) { return r < 20 ? 345.0 : 2000.0; }, false);
  counted first(&runs);
  const run_options o{.warmup = 2, .reps = 3, .warmup_ns = 200e6, .device = &dev};
  const measurement m = measure(first, o);
  EXPECT_EQ(m.warmup_rule, "nvml+device");
  EXPECT_EQ(m.warmup_runs, 20) << "the record's 2, then on until the clock read 2000 (after run 20)";
  EXPECT_TRUE(dev.warmed);
  EXPECT_EQ(m.samples, 3u);
  EXPECT_EQ(m.discarded, 0u);
  EXPECT_EQ(m.sm_mhz_min, 2000);
  EXPECT_EQ(m.sm_mhz_max, 2000);
  EXPECT_EQ(m.sm_mhz_peak, 2000);
  EXPECT_FALSE(m.clock_gave_up);
  EXPECT_EQ(m.total.min, 2100) << "run 21 is the first timed";

  // The next record on the warm device: its own untimed runs only, and no warm-up time.
  counted second(&runs);
  const auto t0 = std::chrono::steady_clock::now();
  const measurement n = measure(second, o);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(150))
      << "warmup_ns (200 ms) is the settle rule's";
  EXPECT_EQ(n.warmup_rule, "nvml");
  EXPECT_EQ(n.warmup_runs, 2);
  EXPECT_EQ(n.samples, 3u);
}

TEST(harness, with_a_clock_each_record_keeps_the_device_busy_counting_its_timed_runs) {
  int runs = 0;
  watched_device dev = device_with(
      &runs, [](int) { return 2000.0; }, true);
  // Runs of no time: timed ones until 40 ms have passed since the record's first run.
  counted quick(&runs);
  const measurement m = measure(quick, {.warmup = 2, .reps = 3, .device = &dev, .busy_ns = 40e6});
  EXPECT_EQ(m.warmup_rule, "nvml");
  EXPECT_EQ(m.warmup_runs, 2);
  EXPECT_GT(m.samples, 3u) << "timed runs fill the busy time";
  EXPECT_GE(m.runs_ns, 40e6);
  // The same busy time in untimed runs (WINNOW_BUSY=untimed), the timed ones foreseen as nothing.
  counted untimed(&runs);
  const measurement u =
      measure(untimed, {.warmup = 2, .reps = 3, .device = &dev, .busy_ns = 40e6, .busy_timed = false});
  EXPECT_GT(u.warmup_runs, 2);
  EXPECT_EQ(u.samples, 3u);
  // Runs of 10 ms: the two untimed (20 ms) and the three timed (30 ms) are busy enough either way.
  // (1 ms of it on the device's timer: under the one long warm-up run that is enough, as below.)
  counted long_runs(&runs, 10, [](int) { return 1e6; });
  const measurement n = measure(long_runs, {.warmup = 2, .reps = 3, .device = &dev, .busy_ns = 40e6});
  EXPECT_EQ(n.warmup_runs, 2);
  EXPECT_EQ(n.samples, 3u);
  EXPECT_EQ(
      measure(long_runs, {.warmup = 2, .reps = 3, .device = &dev, .busy_ns = 40e6, .busy_timed = false}).warmup_runs,
      2);
  // With no warmup asked, one untimed run foresees the rest: 10 + 3 × 10 ms ≥ 40 ms.
  EXPECT_EQ(
      measure(long_runs, {.warmup = 0, .reps = 3, .device = &dev, .busy_ns = 40e6, .busy_timed = false}).warmup_runs,
      1);
  // Without a clock, busy_ns is not the settle rule's.
  counted settled(&runs);
  const measurement x = measure(settled, {.warmup = 1, .reps = 2, .busy_ns = 10e9});
  EXPECT_EQ(x.warmup_runs, 1);
  EXPECT_EQ(x.samples, 2u);
}

TEST(harness, winnow_busy_says_where_the_busy_time_goes) {
  ::unsetenv("WINNOW_BUSY");
  EXPECT_TRUE(busy_in_timed_runs());
  ::setenv("WINNOW_BUSY", "untimed", 1);
  EXPECT_FALSE(busy_in_timed_runs());
  ::setenv("WINNOW_BUSY", "timed", 1);
  EXPECT_TRUE(busy_in_timed_runs());
  ::setenv("WINNOW_BUSY", "sometimes", 1);
  EXPECT_THROW((void)busy_in_timed_runs(), usage_error);
  ::unsetenv("WINNOW_BUSY");
}

TEST(harness, the_device_warm_up_waits_until_the_clock_stops_rising) {
  // Above the threshold (75 % of 2000) but short of the maximum after run 5: the warm-up goes on until
  // the clock has not risen for 100 ms.
  int runs = 0;
  watched_device dev = device_with(
      &runs, [](int r) { return r < 5 ? 345.0 : 1600.0; }, false);
  counted a(&runs);
  const measurement m = measure(a, {.warmup = 0, .reps = 2, .device = &dev});
  EXPECT_GE(m.warmup_ran_ns, 100e6);
  EXPECT_GT(m.warmup_runs, 5);
  EXPECT_EQ(m.sm_mhz_min, 1600);
}

TEST(harness, samples_taken_below_the_throttle_threshold_are_discarded_and_taken_again) {
  // A warm device whose clock drops to 900 MHz (under 75 % of 2000) after runs 4 and 5.
  int runs = 0;
  watched_device dev = device_with(
      &runs, [](int r) { return r == 4 || r == 5 ? 900.0 : 2000.0; }, true);
  counted a(&runs);
  const measurement m = measure(a, {.warmup = 1, .reps = 4, .device = &dev});
  // Run 1 untimed; 2 and 3 kept; 4 read 900 after it: thrown away; 5 and 6 untimed, until the clock
  // is back; 7 and 8 kept.
  EXPECT_EQ(m.warmup_rule, "nvml");
  EXPECT_EQ(m.discarded, 1u);
  EXPECT_EQ(m.samples, 4u);
  EXPECT_EQ(m.warmup_runs, 3);
  EXPECT_EQ(m.total.min, 200);
  EXPECT_EQ(m.total.max, 800);
  EXPECT_EQ(m.total.median, 500) << "runs 2, 3, 7, 8; run 4 is not among them";
  EXPECT_EQ(m.sm_mhz_min, 2000) << "the clock over the kept samples";
  EXPECT_FALSE(m.clock_gave_up);

  // A threshold of 0 keeps every sample.
  int runs2 = 0;
  watched_device dev2 = device_with(
      &runs2, [](int r) { return r == 4 || r == 5 ? 900.0 : 2000.0; }, true);
  counted b(&runs2);
  const measurement n = measure(b, {.warmup = 1, .reps = 4, .device = &dev2, .throttle_threshold = 0});
  EXPECT_EQ(n.discarded, 0u);
  EXPECT_EQ(n.sm_mhz_min, 900);
}

TEST(harness, with_a_clock_one_untimed_run_of_10_ms_or_more_is_warm_up_enough) {
  // nvbench makes one warm-up run: with the clock watched, the untimed runs only absorb first-run
  // costs, which one long run has done (a 2^29-element one-block Redzone run: 260 ms).
  int runs = 0;
  watched_device dev = device_with(
      &runs, [](int) { return 2000.0; }, true);
  counted long_runs(&runs, 0, [](int) { return 12e6; });
  const measurement m = measure(long_runs, {.warmup = 2, .reps = 3, .device = &dev});
  EXPECT_EQ(m.warmup_runs, 1);
  EXPECT_EQ(m.samples, 3u);
  counted short_runs(&runs, 0, [](int) { return 8e6; });
  EXPECT_EQ(measure(short_runs, {.warmup = 2, .reps = 3, .device = &dev}).warmup_runs, 2);
  // Without a clock the untimed runs also bring it up: as many as asked.
  counted unwatched(&runs, 0, [](int) { return 12e6; });
  EXPECT_EQ(measure(unwatched, {.warmup = 2, .reps = 3}).warmup_runs, 2);
}

TEST(harness, the_wait_for_the_clock_is_bounded_and_the_record_says_it_gave_up) {
  // Never recovers after run 3: sample 3 is thrown away, then the wait gives up after settle_ns and the
  // rest are kept as they come.
  int runs = 0;
  watched_device dev = device_with(
      &runs, [](int r) { return r < 3 ? 2000.0 : 345.0; }, true);
  counted a(&runs);
  const auto t0 = std::chrono::steady_clock::now();
  const measurement m = measure(a, {.warmup = 1, .reps = 3, .settle_ns = 20e6, .device = &dev});
  EXPECT_GE(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(20));
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(2));
  EXPECT_TRUE(m.clock_gave_up);
  EXPECT_EQ(m.discarded, 1u);
  EXPECT_EQ(m.samples, 3u);
  EXPECT_EQ(m.sm_mhz_min, 345);
  EXPECT_EQ(m.sm_mhz_max, 2000);
  EXPECT_FALSE(dev.gave_up) << "one record's wait does not stop the next record's";

  // A device whose warm-up never reaches the threshold (clocks locked low) with runs that keep it busy
  // (4 ms of device time a 1 ms sleep: a loaded CI machine that oversleeps still sees them busy; 1 ms
  // failed there once): bounded too, and later records do not wait for it at all.
  int runs2 = 0;
  watched_device low = device_with(
      &runs2, [](int) { return 345.0; }, false);
  const auto busy = [](int) { return 4e6; };
  counted b(&runs2, 1, busy);
  const measurement w = measure(b, {.warmup = 1, .reps = 2, .settle_ns = 20e6, .device = &low});
  EXPECT_EQ(w.warmup_rule, "nvml+device");
  EXPECT_TRUE(w.clock_gave_up);
  EXPECT_TRUE(low.gave_up);
  EXPECT_EQ(w.discarded, 0u);
  counted c(&runs2);
  const measurement x = measure(c, {.warmup = 1, .reps = 2, .settle_ns = 20e6, .device = &low});
  EXPECT_EQ(x.warmup_runs, 1);
  EXPECT_TRUE(x.clock_gave_up);
}

/// Runs of `us` µs on the device's timer.
std::function<double(int)> device_us(double us) {
  return [us](int) { return us * 1e3; };
}

/// With the clock at 2000 MHz from now on, a record of runs of 4 µs (4× the 1 µs runs that left the
/// device idle) warms the device up again and is measured at its clock.
void expect_runs_4x_as_long_warm_it_up_again(int* runs, double& now, const run_options& o) {
  now = 2000;
  counted longer(runs, 1, device_us(4));
  const measurement x = measure(longer, o);
  EXPECT_EQ(x.warmup_rule, "nvml+device");
  EXPECT_FALSE(x.clock_gave_up);
  EXPECT_EQ(x.sm_mhz_min, 2000);
  EXPECT_EQ(o.device->warmed_mhz, 2000);
  EXPECT_EQ(o.device->idle_run_ns, 0);
}

TEST(harness, a_wait_for_the_clock_whose_runs_left_the_device_idle_is_not_repeated_by_records_of_runs_as_short) {
  // A warm device whose clock fell while the host made the next case. The H200 on vulkan_tests'
  // records (one run each, 1 µs of device time in 1 ms): each would wait settle_ns in vain.
  int runs = 0;
  double now = 2000;
  watched_device dev = device_with(
      &runs, [&now](int) { return now; }, true);
  dev.warmed_mhz = dev.settled_mhz = 2000;
  const run_options o{.warmup = 1, .reps = 2, .settle_ns = 20e6, .device = &dev};
  now = 1230;
  counted tiny(&runs, 1, device_us(1));
  const measurement m = measure(tiny, o);
  EXPECT_TRUE(m.clock_gave_up);
  EXPECT_GE(m.warmup_ran_ns, 20e6) << "it waited";
  EXPECT_EQ(dev.idle_run_ns, 1e3);
  EXPECT_FALSE(dev.gave_up);

  counted as_short(&runs, 1, device_us(2));
  const measurement n = measure(as_short, o);
  EXPECT_TRUE(n.clock_gave_up);
  EXPECT_LT(n.warmup_ran_ns, 20e6) << "runs as short do not wait again";

  expect_runs_4x_as_long_warm_it_up_again(&runs, now, o);
}

TEST(harness, a_device_warm_up_whose_runs_left_the_device_idle_is_tried_again_by_a_record_of_longer_runs) {
  // The H200 after 10 s idle: 1M-element Vulkan runs (17 µs of a 66 µs run) took its clock to 1230
  // MHz in 3 s and no further. Here: runs of 1 µs on the device in 1 ms of wall time.
  int runs = 0;
  double now = 1230;
  watched_device dev = device_with(
      &runs, [&now](int) { return now; }, false);
  const run_options o{.warmup = 1, .reps = 2, .settle_ns = 20e6, .device = &dev};
  counted tiny(&runs, 1, device_us(1));
  const measurement m = measure(tiny, o);
  EXPECT_EQ(m.warmup_rule, "nvml+device");
  EXPECT_TRUE(m.clock_gave_up);
  EXPECT_FALSE(dev.gave_up) << "runs that idle the device do not show what its clock can reach";
  EXPECT_EQ(dev.idle_run_ns, 1e3);

  // A record of runs as short (under 4× as long) does not wait for the clock.
  counted also_tiny(&runs, 1, device_us(3));
  const measurement n = measure(also_tiny, o);
  EXPECT_EQ(n.warmup_rule, "nvml");
  EXPECT_TRUE(n.clock_gave_up);
  EXPECT_LT(n.warmup_ran_ns, 20e6);

  // The first record of runs 4× as long warms the device up again, and its clock comes up.
  expect_runs_4x_as_long_warm_it_up_again(&runs, now, o);
  counted after(&runs, 1, device_us(1));
  EXPECT_EQ(measure(after, o).warmup_rule, "nvml") << "the device is warm: short runs too are measured at its clock";

  // Busy runs that do not bring the clock up do show it: the device gives up for good (4 ms of device
  // time a 1 ms sleep: busy on a loaded machine too).
  int runs2 = 0;
  watched_device low = device_with(
      &runs2, [](int) { return 1230.0; }, false);
  counted busy(&runs2, 1, device_us(4000));
  EXPECT_TRUE(measure(busy, {.warmup = 1, .reps = 2, .settle_ns = 20e6, .device = &low}).clock_gave_up);
  EXPECT_TRUE(low.gave_up);
  counted busier(&runs2, 1, device_us(10000));
  EXPECT_EQ(measure(busier, {.warmup = 1, .reps = 2, .settle_ns = 20e6, .device = &low}).warmup_rule, "nvml");
}

TEST(harness, a_wait_for_the_clock_heats_the_device_when_the_records_runs_leave_it_idle) {
  // The H100's 1M-16M Vulkan lookback records (15-20 µs of each ~70 µs run) held its clock at
  // 1140-1410 MHz of 1980, run to run. Here: runs of 1 µs in 1 ms of wall time; the clock reaches its
  // maximum after 5 ms of the backend's heat, and falls back 3 runs after the last heat.
  int runs = 0;
  double heated_ns = 0;
  int heats = 0, runs_at_heat = 0;
  int busy_from = -1; // busy runs from this run on: the clock at its maximum after 3 of them
  watched_device dev = device_with(
      &runs,
      [&](int r) {
        return (busy_from >= 0 && r - busy_from >= 3) || (heated_ns >= 5e6 && r - runs_at_heat <= 3) ? 2000.0 : 1230.0;
      },
      true);
  // Warmed up once, then left idle by a record of short runs without heat (another API's, say).
  dev.warmed_mhz = dev.settled_mhz = 2000;
  dev.idle_run_ns = 1e3;
  const auto heat = [&](double ns) {
    ++heats;
    heated_ns += ns;
    runs_at_heat = runs;
    return ns;
  };
  const run_options o{.warmup = 1, .reps = 5, .settle_ns = 200e6, .device = &dev, .heat = heat};
  counted tiny(&runs, 1, device_us(1));
  const measurement m = measure(tiny, o);
  EXPECT_EQ(m.warmup_rule, "nvml+device+heat");
  EXPECT_FALSE(m.clock_gave_up);
  EXPECT_EQ(m.samples, 5u);
  EXPECT_EQ(m.sm_mhz_min, 2000) << "every kept sample at the clock";
  EXPECT_GE(m.discarded, 1u) << "the clock fell after 3 runs and was heated back";
  EXPECT_GE(heated_ns, 5e6);
  EXPECT_EQ(dev.idle_run_ns, 0) << "heat keeps the device busy: its waits show where the clock is";
  EXPECT_FALSE(dev.gave_up);

  // Runs that keep the device busy are their own heat: the record waits on them, not the backend's
  // (4 ms of device time a 1 ms sleep, as above: a loaded CI machine oversleeps a 1 ms sleep by more
  // than the half that would make the runs look idle, and CI failed on this once).
  const int heats_before = heats;
  counted busy(&runs, 1, device_us(4000));
  busy_from = runs;
  const measurement n = measure(busy, o);
  EXPECT_EQ(heats, heats_before);
  EXPECT_EQ(n.warmup_rule, "nvml");
  EXPECT_GT(n.warmup_runs, o.warmup) << "it waited for the clock on its own runs";
  EXPECT_FALSE(n.clock_gave_up);
}

TEST(harness, records_hold_to_where_the_clock_settled_and_resettle_as_it_moves) {
  // Settled at 2000 MHz; 1900 (95 %: over the 75 % threshold, under 97 % of 2000) after runs 4 and 5.
  int runs = 0;
  watched_device dev = device_with(
      &runs, [](int r) { return r == 4 || r == 5 ? 1900.0 : 2000.0; }, true);
  dev.warmed_mhz = dev.settled_mhz = 2000;
  counted a(&runs);
  const measurement m = measure(a, {.warmup = 1, .reps = 4, .device = &dev});
  EXPECT_EQ(m.discarded, 1u) << "run 4 read 1900 after it";
  EXPECT_EQ(m.sm_mhz_min, 2000);
  EXPECT_FALSE(m.clock_gave_up);

  // From run 3 on the clock is at `now` (90 %): the record waits in vain (settle_ns) and the device
  // counts as settled where the wait got, so the next record does not wait; once the clock is back,
  // a record's samples bring it back up, as far as where the warm-up settled.
  int runs2 = 0;
  double now = 1800;
  watched_device lower = device_with(
      &runs2, [&now](int r) { return r < 3 ? 2000.0 : now; }, true);
  lower.warmed_mhz = lower.settled_mhz = 2000;
  counted b(&runs2);
  const measurement w = measure(b, {.warmup = 1, .reps = 2, .settle_ns = 20e6, .device = &lower});
  EXPECT_TRUE(w.clock_gave_up);
  EXPECT_EQ(w.discarded, 1u);
  EXPECT_EQ(lower.settled_mhz, 1800) << "where the wait got, not the 2000 read before it";
  EXPECT_FALSE(lower.gave_up);
  counted c(&runs2);
  const measurement x = measure(c, {.warmup = 1, .reps = 2, .settle_ns = 20e6, .device = &lower});
  EXPECT_FALSE(x.clock_gave_up);
  EXPECT_EQ(x.warmup_runs, 1);
  EXPECT_EQ(x.discarded, 0u);
  now = 2100; // over where the warm-up settled
  counted d(&runs2);
  (void)measure(d, {.warmup = 1, .reps = 2, .device = &lower});
  EXPECT_EQ(lower.settled_mhz, 2000);

  // The device warm-up says where it settled.
  int runs3 = 0;
  watched_device fresh = device_with(
      &runs3, [](int r) { return r < 5 ? 345.0 : 1600.0; }, false);
  counted e(&runs3);
  (void)measure(e, {.warmup = 0, .reps = 2, .device = &fresh});
  EXPECT_EQ(fresh.warmed_mhz, 1600);
  EXPECT_EQ(fresh.settled_mhz, 1600);
}

TEST(harness, the_clock_is_read_once_a_sample) {
  int runs = 0;
  watched_device dev = device_with(
      &runs, [](int) { return 2000.0; }, true);
  auto* clock = static_cast<fake_clock*>(dev.clock.get());
  counted a(&runs);
  (void)measure(a, {.warmup = 1, .reps = 4, .device = &dev});
  EXPECT_EQ(clock->reads, 1 + 2 + 3) << "once before the samples; before and after the first, after the others";
  clock->reads = 0;
  counted b(&runs);
  (void)measure(b, {.warmup = 1, .reps = 4, .cold = true, .device = &dev});
  EXPECT_EQ(clock->reads, 1 + 2 * 4) << "a cache flush comes between two samples: each reads before and after";
}

TEST(harness, without_a_clock_the_settle_rule_runs_and_says_so) {
  int runs = 0;
  counted a(&runs);
  const measurement m = measure(a, {.warmup = 1, .reps = 2, .warmup_ns = 5e6});
  EXPECT_EQ(m.warmup_rule, "settle");
  EXPECT_GE(m.warmup_ran_ns, 5e6);
  EXPECT_EQ(m.sm_mhz_peak, 0);
  watched_device no_clock; // a device NVML could not open
  counted b(&runs);
  EXPECT_EQ(measure(b, {.warmup = 1, .reps = 2, .device = &no_clock}).warmup_rule, "settle");
  EXPECT_EQ(watch(std::nullopt), nullptr) << "a backend that cannot say which device it is";
  // A device NVML cannot watch here (no driver library; with one, no such UUID): no clock, and why.
  watched_device* unknown = watch(device_identity{"GPU-00000000-0000-0000-0000-000000000000", ""});
  ASSERT_NE(unknown, nullptr);
  EXPECT_FALSE(unknown->clock);
  EXPECT_TRUE(unknown->why.starts_with("winnow nvml: ")) << unknown->why;
  EXPECT_EQ(watch(device_identity{"GPU-00000000-0000-0000-0000-000000000000", ""}), unknown)
      << "one per device and process";
  counted c(&runs);
  EXPECT_EQ(measure(c, {.warmup = 1, .reps = 2, .device = unknown}).warmup_rule, "settle");
}

TEST(harness, run_case_records_the_warm_up_rule_and_the_clock) {
  registry reg;
  backend b;
  b.api = "fake";
  b.device = [] { return device_info{"test device", "test driver", std::nullopt}; };
  reg.add(b);
  int runs = 0;
  const algorithm_entry e{.info = {.api = "fake", .name = "counted"},
                          .make = [&] { return std::make_unique<counted>(&runs); }};
  prepared_case c{};
  watched_device dev = device_with(
      &runs, [](int r) { return r == 3 ? 1000.0 : 1900.0; }, true);
  const record r = run_case(reg, e, {}, c, {.warmup = 1, .reps = 3, .device = &dev});
  EXPECT_TRUE(r.verified) << r.mismatch;
  EXPECT_EQ(r.warmup_rule, "nvml");
  EXPECT_EQ(r.discarded, 1u);
  EXPECT_EQ(r.sm_mhz_min, 1900);
  EXPECT_EQ(r.sm_mhz_max, 1900);
  EXPECT_EQ(r.sm_mhz_peak, 2000);
  EXPECT_FALSE(r.clock_gave_up);
  // No identity: no clock, the settle rule.
  const record s = run_case(reg, e, {}, c, {.warmup = 1, .reps = 1});
  EXPECT_EQ(s.warmup_rule, "settle");
  EXPECT_EQ(s.sm_mhz_peak, 0);
}

// WINNOW_NVML=0: no clock is opened for a device, and the reason says why (the settle rule runs).
TEST(harness, nvml_off_by_the_environment_leaves_the_device_unwatched_and_says_why) {
  ::setenv("WINNOW_NVML", "0", 1);
  device_identity id;
  id.uuid = "GPU-00000000-0000-0000-0000-00000000beef"; // a device no other test watches
  const watched_device* d = watch(id);
  ::unsetenv("WINNOW_NVML");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->clock, nullptr);
  EXPECT_NE(d->why.find("WINNOW_NVML=0"), std::string::npos) << d->why;
}

} // namespace
} // namespace winnow
