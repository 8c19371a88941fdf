// What the conformance grid does not show for the shader-era algorithms, on every API that runs them
// (gl, vk and vkfrag): every search loop stays within its proven bound (the loop check, a run option,
// makes the search passes write their trips, and result() fails past the bound), and every API runs
// the same plan — the same passes, the same traffic — for the same algorithm, parameters and case.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <numeric>
#include <optional>
#include <set>
#include <sstream>

#include "grid_sample.hpp"
#include "winnow/backends.hpp"
#include "winnow/corpus.hpp"
#include "winnow/error.hpp"
#include "winnow/harness.hpp"
#include "winnow/shader_era/adaptive.hpp"
#include "winnow/shader_era/frame.hpp"
#include "winnow/shader_era/trace.hpp"

namespace winnow {
namespace {

bool shader_era(const algorithm_entry& e) { return shader_era::runs_plans(e.info); }

/// The plan APIs that can run here.
std::vector<std::string> runnable_apis() {
  std::vector<std::string> out;
  for (const std::string_view api : shader_era::plan_apis)
    if (!all_backends().unavailable_reason(api)) out.emplace_back(api);
  return out;
}

std::vector<const algorithm_entry*> shader_era_entries() {
  std::vector<const algorithm_entry*> out;
  for (const auto& b : all_backends().backends())
    for (const auto& e : b.algorithms)
      if (shader_era(e)) out.push_back(&e);
  return out;
}

prepared_case make_case(const std::string& spec) {
  prepared_case c = prepare_case(generate(spec));
  return c;
}

shader_era::algorithm_kind kind_of(const std::string& name) {
  if (name == "horn") return shader_era::algorithm_kind::horn;
  if (name == "jj") return shader_era::algorithm_kind::jj;
  if (name == "rlz") return shader_era::algorithm_kind::rlz;
  if (name == "bt") return shader_era::algorithm_kind::bt;
  if (name == "histopyramid") return shader_era::algorithm_kind::histopyramid;
  throw error("kind_of: '" + name + "' is no shader-era algorithm");
}

class loop_bounds : public testing::TestWithParam<const algorithm_entry*> {};

TEST_P(loop_bounds, search_loops_stay_within_their_proven_bound) {
  const algorithm_entry& e = *GetParam();
  const registry& reg = all_backends();
  if (auto reason = reg.unavailable_reason(e.info.api)) GTEST_SKIP() << *reason;
  // Dense, sparse, single, alternating and long runs: the worst cases of every loop's bound (Jumping
  // Jack: one valid element in the middle of a block needs B − 1 hops; RLZ: many short runs).
  // The grid is sampled as the conformance grid's is (grid_sample.hpp): every set on one of these cases.
  const std::vector<std::string> specs = {
      "all:5000",          "single:4096:at=0",     "single:4096",          "single:4096:at=1024",
      "single:4096:at=16", "uniform:70000:p=0.02", "uniform:70000:p=0.98", "runs:70000:valid=3:invalid=1000",
      "alternating:9000"};
  const std::vector<params> grid = sweep(e.info, {"concat"}); // the concatenation has no loop
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const prepared_case c = make_case(specs[i]);
    for (const auto& p : conformance::sets_for_case(e.info, grid, i, specs.size())) {
      const record r = run_case(reg, e, p, c, {.warmup = 0, .reps = 1, .prepare = {.loop_check = true}});
      EXPECT_TRUE(r.verified) << e.info.full_name() << " " << to_string(p) << " " << specs[i] << ": " << r.mismatch;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(shader_era, loop_bounds, testing::ValuesIn(shader_era_entries()),
                         [](const testing::TestParamInfo<const algorithm_entry*>& i) {
                           return i.param->info.api + "_" + i.param->info.name;
                         });

// The grid's blocks (32 … 2048) all have an odd log2 B; Binary-Tree's descent takes two levels per
// step and ends differently when log2 B is even (on the four leaves under a level-2 node).
TEST(shader_era, binary_tree_descends_every_block_size) {
  const registry& reg = all_backends();
  const std::vector<std::string> apis = runnable_apis();
  if (apis.empty()) GTEST_SKIP() << "no plan API (gl, vk, vkfrag) can run here";
  for (const char* spec : {"all:5000", "single:4096:at=0", "single:4096", "uniform:70000:p=0.5", "alternating:9001",
                           "removal:20000:k=0.3"}) {
    const prepared_case c = make_case(spec);
    for (const auto& api : apis)
      for (const char* block : {"32", "64", "128", "256", "512", "1024", "2048"}) {
        const params p{{"block", block}};
        const record r =
            run_case(reg, reg.find(api + "/bt"), p, c, {.warmup = 0, .reps = 1, .prepare = {.loop_check = true}});
        EXPECT_TRUE(r.verified) << api << "/bt block=" << block << " " << spec << ": " << r.mismatch;
      }
  }
}

TEST(shader_era, every_api_runs_the_plan_pass_for_pass) {
  const registry& reg = all_backends();
  const std::vector<std::string> apis = runnable_apis();
  if (apis.empty()) GTEST_SKIP() << "no plan API (gl, vk, vkfrag) can run here";
  for (const char* spec : {"uniform:4096:p=0.5", "uniform:100003:p=0.3", "removal:20000:k=0.2"}) {
    const prepared_case c = make_case(spec);
    for (const char* name : {"horn", "jj", "rlz", "bt"})
      for (const char* block : {"32", "512"})
        for (const char* scan : {"hillis", "blelloch"}) {
          const params p{{"block", block}, {"scan", scan}};
          std::optional<record> first;
          for (const auto& api : apis) {
            const algorithm_entry& e = reg.find(api + "/" + name);
            const record r = run_case(reg, e, p, c, {0, 1, false});
            ASSERT_TRUE(r.verified) << e.info.full_name() << " " << to_string(p) << " " << spec << ": " << r.mismatch;
            shader_era::plan_params pp = shader_era::plan_params_of(resolve_params(e.info, p));
            if (pp.concat == shader_era::concat_method::automatic)
              pp.concat = shader_era::concat_method::lines; // one pass either way
            const shader_era::plan plan = shader_era::build_plan(
                kind_of(name), pp, {c.w.size(), c.w.removals.size(), c.w.removal_list, c.w.kept()}, 16384, false);
            EXPECT_EQ(r.launches, plan.passes.size()) << e.info.full_name() << " " << to_string(p) << " " << spec;
            if (!first) {
              first = r;
              continue;
            }
            EXPECT_EQ(r.launches, first->launches) << name << " " << to_string(p) << " " << spec;
            EXPECT_EQ(r.bytes_read, first->bytes_read) << name << " " << to_string(p) << " " << spec;
            EXPECT_EQ(r.bytes_written, first->bytes_written) << name << " " << to_string(p) << " " << spec;
            std::vector<std::string> a, b;
            for (const auto& ph : r.phases) a.push_back(ph.name);
            for (const auto& ph : first->phases) b.push_back(ph.name);
            EXPECT_EQ(a, b) << name << ": the same phases";
          }
        }
  }
}

TEST(shader_era, the_histopyramid_runs_its_plan_pass_for_pass_on_both_graphics_paths) {
  const registry& reg = all_backends();
  std::vector<std::string> apis;
  for (const auto& api : runnable_apis())
    if (api != "vk") apis.push_back(api); // Vulkan compute has no quad pyramid
  if (apis.empty()) GTEST_SKIP() << "no graphics path (gl, vkfrag) can run here";
  for (const char* spec : {"uniform:4096:p=0.5", "uniform:100003:p=0.3", "removal:20000:k=0.2", "all:1"}) {
    const prepared_case c = make_case(spec);
    const shader_era::plan plan = shader_era::build_plan(
        kind_of("histopyramid"), {}, {c.w.size(), c.w.removals.size(), c.w.removal_list, c.w.kept()}, 16384, false);
    std::optional<record> first;
    for (const auto& api : apis) {
      const record r = run_case(reg, reg.find(api + "/histopyramid"), {}, c, {0, 1, false});
      ASSERT_TRUE(r.verified) << api << " " << spec << ": " << r.mismatch;
      EXPECT_EQ(r.launches, plan.passes.size()) << api << " " << spec;
      if (!first) {
        first = r;
        continue;
      }
      EXPECT_EQ(r.bytes_read, first->bytes_read) << spec;
      EXPECT_EQ(r.bytes_written, first->bytes_written) << spec;
    }
  }
}

TEST(shader_era, traces_on_every_api_show_the_same_values_pass_for_pass) {
  const registry& reg = all_backends();
  const std::vector<std::string> apis = runnable_apis();
  if (apis.size() < 2) GTEST_SKIP() << "needs two plan APIs (gl, vk, vkfrag) here";
  const prepared_case c = make_case("removal:9001:k=0.4");
  for (const char* name : {"horn", "jj", "rlz", "bt"})
    for (const params& p :
         {params{{"block", "32"}}, params{{"block", "128"}, {"scan", "blelloch"}, {"runs", "tree"}}}) {
      std::vector<std::vector<shader_era::traced_pass>> traces;
      for (const auto& api : apis) {
        const algorithm_entry& e = reg.find(api + "/" + name);
        params q = p;
        if (std::string(name) != "rlz") q.erase("runs");
        auto a = e.make();
        auto* plan_algo = dynamic_cast<shader_era::plan_algorithm*>(a.get());
        ASSERT_NE(plan_algo, nullptr) << e.info.full_name();
        plan_algo->prepare(c.w, resolve_params(e.info, q), {});
        auto t = plan_algo->make_timer();
        traces.push_back(shader_era::trace(*plan_algo, *t));
      }
      for (std::size_t k = 1; k < traces.size(); ++k) {
        const std::string which = name + (" on " + apis[0] + " and " + apis[k]);
        ASSERT_EQ(traces[0].size(), traces[k].size()) << which;
        for (std::size_t i = 0; i < traces[0].size(); ++i) {
          const auto &g = traces[0][i], &v = traces[k][i];
          EXPECT_EQ(g.phase, v.phase) << which << " pass " << i;
          if (g.phase != "concat") { // its name says how: lines or rectangles, a copy or a search
            EXPECT_EQ(g.name, v.name) << which << " pass " << i;
          }
          EXPECT_EQ(g.width, v.width) << which << " " << g.name;
          EXPECT_EQ(g.height, v.height) << which << " " << g.name;
          EXPECT_TRUE(g.words == v.words)
              << which << " " << to_string(p) << ": pass " << i << " (" << g.name << ") differs";
        }
      }
    }
}

TEST(shader_era, concat_auto_records_what_its_probe_chose) {
  const registry& reg = all_backends();
  const prepared_case c = make_case("uniform:5000:p=0.5");
  bool ran = false;
  for (const char* api : {"gl", "vkfrag"}) {
    if (reg.unavailable_reason(api)) continue;
    const algorithm_entry& e = reg.find(std::string(api) + "/horn");
    const record r = run_case(reg, e, {{"concat", "auto"}}, c, {0, 1, false});
    ASSERT_TRUE(r.verified) << api << ": " << r.mismatch;
    EXPECT_EQ(r.parameters.at("concat"), "auto") << api;
    ASSERT_EQ(r.chosen.count("concat"), 1u) << api;
    EXPECT_TRUE(r.chosen.at("concat") == "lines" || r.chosen.at("concat") == "rects") << r.chosen.at("concat");
    EXPECT_EQ(from_json_line(to_json_line(r)).chosen, r.chosen) << api;
    const record given = run_case(reg, e, {{"concat", "rects"}}, c, {0, 1, false});
    EXPECT_TRUE(given.verified) << api << ": " << given.mismatch;
    EXPECT_TRUE(given.chosen.empty()) << api;
    EXPECT_EQ(to_json_line(given).find("\"chosen\""), std::string::npos) << api;
    ran = true;
  }
  if (!ran) GTEST_SKIP() << "neither gl nor vkfrag can run here";
}

// The adaptive algorithm's sample pass, on every API, writes exactly the words the CPU computes for
// the training cases (so the model sees on the GPU what it was fitted on): whole small streams,
// sparse windows over a large one, one element, none valid.
TEST(shader_era, the_sample_pass_writes_what_the_cpu_computes) {
  const registry& reg = all_backends();
  const std::vector<std::string> apis = runnable_apis();
  if (apis.empty()) GTEST_SKIP() << "no plan API (gl, vk, vkfrag) can run here";
  for (const char* spec :
       {"finger:100003", "uniform:300000:p=0.3", "runs:5000:valid=3:invalid=40", "all:1", "none:40"}) {
    const workload w = generate(spec);
    const shader_era::sample_shape shape = shader_era::sample_shape_for(w.size());
    const auto expected = shader_era::sample_words(w.data, shape);
    for (const auto& api : apis) {
      const algorithm_entry& e = reg.find(api + "/bt");
      auto a = e.make();
      auto& x = dynamic_cast<shader_era::plan_algorithm&>(*a).exec();
      shader_era::plan pl;
      pl.input = {w.size(), 0, false, w.kept()};
      pl.layout = shader_era::layout_for(w.size(), 1, x.max_width());
      shader_era::add_stream(pl, 0, x.max_width());
      const shader_era::view out = shader_era::add_sample(pl, shader_era::view{pl.stream}, shape, x.max_width());
      std::vector<std::uint32_t> padded(pl.layout.size(), 0);
      std::copy(w.data.begin(), w.data.end(), padded.begin());
      x.prepare(pl, resolve_params(e.info, {}), {padded, {}});
      x.begin();
      for (std::size_t i = 0; i < pl.passes.size(); ++i) x.record(i);
      EXPECT_EQ(x.read_midway(out, shape.words), expected) << api << " " << spec << " (within the run)";
      x.record(pl.passes.size() - 1); // the run goes on after it
      x.end();
      EXPECT_EQ(x.read(out, 0, shape.words), expected) << api << " " << spec;
    }
  }
}

// The adaptive algorithm's choice on the device: the choose pass marks the one candidate whose
// coefficients predict the least time from the sample's features as the CPU computes them; and where
// the executor can skip passes (conditional rendering: Vulkan, desktop OpenGL), a pass under the marked word runs and
// a pass under another word does not.
TEST(shader_era, the_choice_pass_marks_what_the_cpu_predicts_fastest) {
  const registry& reg = all_backends();
  const std::vector<std::string> apis = runnable_apis();
  if (apis.empty()) GTEST_SKIP() << "no plan API (gl, vk, vkfrag) can run here";
  // ns = features · coefficients, features [1, p, p², c]: a constant; falling with density; with changes.
  const std::vector<shader_era::features> three = {{1, 0, 0, 0}, {1.6, -1.2, 0, 0}, {1.5, 0, 0, -2}};
  // The same three among 37, at 2, 17 and 36 (choose.glsl takes the candidates 16 at a time: the
  // first chunk, the second and the last, partial one), the others never near the fastest.
  std::vector<shader_era::features> many(37, shader_era::features{1000, 0, 0, 0});
  many[2] = three[0];
  many[17] = three[1];
  many[36] = three[2];
  for (const std::vector<shader_era::features>& candidates : {three, many}) {
    std::set<std::size_t> winners;
    // all:90: three windows, three regions — arrays laid out wider than their words (the padding reads nothing).
    for (const char* spec : {"none:40", "all:90", "all:5000", "uniform:300000:p=0.3", "uniform:300000:p=0.9",
                             "runs:100000:valid=3:invalid=3"}) {
      const workload w = generate(spec);
      const shader_era::sample_shape shape = shader_era::sample_shape_for(w.size());
      const auto sampled = shader_era::sample_words(w.data, shape);
      const shader_era::features f = shader_era::features_of(shader_era::estimate(sampled, shape));
      std::vector<double> ns;
      for (const auto& c : candidates) ns.push_back(std::inner_product(f.begin(), f.end(), c.begin(), 0.0));
      const auto best = static_cast<std::size_t>(std::min_element(ns.begin(), ns.end()) - ns.begin());
      for (std::size_t k = 0; k < ns.size(); ++k) {
        if (k != best) { ASSERT_GT(ns[k] - ns[best], 0.05) << spec << ": too close a call for float arithmetic"; }
      }
      winners.insert(best);
      std::vector<std::uint32_t> expected(candidates.size(), 0);
      expected[best] = 1;
      // Three orders of recording: the chosen candidate's pass first; with a phase marked in each
      // (a timestamp, as the algorithm's runs write); the other candidate's first.
      for (const auto& api : apis)
        for (const int order : {0, 1, 2}) {
          const algorithm_entry& e = reg.find(api + "/bt");
          auto a = e.make();
          auto& x = dynamic_cast<shader_era::plan_algorithm&>(*a).exec();
          if (order > 0 && !x.predicates()) continue;
          const std::string where = api + " " + spec + " order " + std::to_string(order) + ", " +
                                    std::to_string(candidates.size()) + " candidates";
          shader_era::plan pl;
          pl.input = {w.size(), 0, false, w.kept()};
          pl.layout = shader_era::layout_for(w.size(), 1, x.max_width());
          shader_era::add_stream(pl, 0, x.max_width());
          const shader_era::view stream{pl.stream};
          const shader_era::view sample = shader_era::add_sample(pl, stream, shape, x.max_width());
          const auto count = static_cast<std::uint32_t>(candidates.size());
          const shader_era::choice_views choice = shader_era::add_choice(pl, sample, shape, count, x.max_width());
          const std::size_t choosing = pl.passes.size();
          // Two more samples, into arrays of their own: one under the chosen word, one under another.
          const shader_era::view ran = shader_era::add_sample(pl, stream, shape, x.max_width());
          const shader_era::view skipped = shader_era::add_sample(pl, stream, shape, x.max_width());
          std::vector<std::uint32_t> padded(pl.layout.size(), 0);
          std::copy(w.data.begin(), w.data.end(), padded.begin());
          x.prepare(pl, resolve_params(e.info, {}), {padded, {}});
          x.write(choice.model, shader_era::choice_model_words(candidates, shape));
          const std::vector<std::uint32_t> untouched(shape.words, 0xdeadbeefu); // no sample word
          x.write(ran, untouched);
          x.write(skipped, untouched);
          const auto timer = x.make_timer();
          timer->start();
          x.begin();
          timer->phase("choose");
          for (std::size_t i = 0; i < choosing; ++i) x.record(i);
          const auto under = [&](std::size_t word, std::size_t pass) {
            x.predicate_on(choice.choice, static_cast<std::uint32_t>(word));
            if (order == 1) timer->phase("pass " + std::to_string(pass));
            x.record(pass);
            x.predicate_off();
          };
          if (x.predicates()) {
            const std::size_t other = (best + 1) % candidates.size();
            if (order == 2) under(other, choosing + 1);
            under(best, choosing);
            if (order != 2) under(other, choosing + 1);
          }
          x.end();
          timer->stop();
          (void)timer->read();
          EXPECT_EQ(x.read(choice.choice, 0, candidates.size()), expected) << where;
          if (!x.predicates()) continue;
          EXPECT_EQ(x.read(ran, 0, shape.words), sampled) << where << ": the pass under the chosen word did not run";
          EXPECT_EQ(x.read(skipped, 0, shape.words), untouched) << where << ": the pass under another word ran";
        }
    }
    EXPECT_EQ(winners.size(), 3u) << "the streams should make each of the three win once";
  }
}

/// One final record of `api`'s `algo` at `block` (scan hillis) on uniform:64K:p=`p`, as the adaptive
/// model reads it.
/// `phases`, where given, is the record's "phases" array as JSON.
std::string record_line(const std::string& api, const char* algo, const char* block, const char* p, double ns,
                        const std::string& phases = "") {
  std::ostringstream out;
  out << R"({"api":")" << api << R"(","algorithm":")" << api << "/" << algo << R"(","params":{"block":")" << block
      << R"(","scan":"hillis"},"case":"uniform:64K:p=)" << p << R"(","n":65536,"verified":true,"total":{"median_ns":)"
      << ns << "}" << (phases.empty() ? "" : R"(,"phases":)" + phases) << "}\n";
  return out.str();
}

/// A fresh folder of records, one file per api of `apis` written by `write`; the caller removes it.
std::filesystem::path records_folder(const std::string& name, const std::vector<std::string>& apis,
                                     const std::function<void(std::ostream&, const std::string&)>& write) {
  const auto dir = std::filesystem::temp_directory_path() / ("winnow-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  for (const auto& api : apis) {
    std::ofstream out(dir / (api + ".jsonl"));
    write(out, api);
  }
  return dir;
}

// With records saying block 2048 wins on sparse streams and block 32 on dense ones, the adaptive
// algorithm runs the one its sample predicts fastest — on predicate cases and on removal lists,
// whose sample is taken after the marks — and its result is verified like any other. The records'
// times are large (tens of ms), so that guessing wrong costs more than any device's sample: auto
// samples. Without a sample (choice=none) it runs block 32, whose worst loss is the smaller (35 ms
// at p = 0.05 against block 2048's 55 ms at p = 0.95); choice=speculate runs block 32's first pass
// while the sample goes to the host, so that guess holds on dense streams, and block 2048 runs after
// that pass on sparse ones.
TEST(shader_era, the_adaptive_algorithm_runs_the_candidate_its_records_predict_fastest) {
  const registry& reg = all_backends();
  const std::vector<std::string> apis = runnable_apis();
  if (apis.empty()) GTEST_SKIP() << "no plan API (gl, vk, vkfrag) can run here";
  const auto dir = std::filesystem::temp_directory_path() / ("winnow-adaptive-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir / "sub");
  for (const auto& api : apis) {
    std::ofstream out(dir / "sub" / (api + ".jsonl"));
    for (const char* p : {"0.05", "0.3", "0.7", "0.95"}) {
      out << record_line(api, "bt", "2048", p, 1e7 + 1e8 * std::stod(p)) << record_line(api, "bt", "32", p, 5e7);
    }
    out << "not a record\n"; // a torn line is passed over
  }
  for (const auto& api : apis) {
    const algorithm_entry& e = reg.find(api + "/adaptive");
    // The choice made on the device (where the executor can skip passes: not on OpenGL ES) and read
    // back by the host.
    const auto probe = reg.find(api + "/bt").make();
    const bool device = dynamic_cast<shader_era::plan_algorithm&>(*probe).exec().predicates();
    // On the device, the candidates one after another and interleaved round by round (their phases
    // line up: both are Binary-Tree; on removal lists only the second marks in the run).
    for (const auto& [where, schedule] : std::vector<std::pair<std::string, std::string>>{{"auto", "auto"},
                                                                                          {"host", "sequential"},
                                                                                          {"device", "sequential"},
                                                                                          {"device", "interleaved"},
                                                                                          {"speculate", "auto"},
                                                                                          {"none", "auto"}})
      for (const auto& [spec, block] : std::vector<std::pair<std::string, std::string>>{{"uniform:64K:p=0.1", "2048"},
                                                                                        {"uniform:64K:p=0.9", "32"},
                                                                                        {"removal:64K:k=0.9", "2048"},
                                                                                        {"removal:64K:k=0.1", "32"}}) {
        const prepared_case c = make_case(spec);
        const record r = run_case(reg, e, {{"model", dir.string()}, {"choice", where}, {"schedule", schedule}}, c,
                                  {.warmup = 0, .reps = 2, .prepare = {.loop_check = true}});
        if (where == "device" && !device) {
          EXPECT_TRUE(r.skipped.has_value()) << api << ": choice=device where passes cannot be skipped";
          continue;
        }
        ASSERT_TRUE(r.verified) << api << " " << where << " " << spec << ": " << r.mismatch << r.skipped.value_or("");
        EXPECT_EQ(r.chosen.at("algorithm"), "bt") << api << " " << spec;
        if (where == "none") {
          EXPECT_EQ(r.chosen.at("block"), "32") << api << " " << spec;
          EXPECT_EQ(r.chosen.at("choice"), "none") << api << " " << spec;
          EXPECT_TRUE(std::none_of(r.phases.begin(), r.phases.end(), [](const auto& ph) {
            return ph.name == "sample";
          })) << api;
          continue;
        }
        EXPECT_EQ(r.chosen.at("block"), block) << api << " " << where << " " << spec;
        if (where == "speculate") { // the guess is choice=none's, block 32: kept, or left after its first pass
          EXPECT_EQ(r.chosen.at("choice"), "speculate") << api << " " << spec;
          EXPECT_EQ(r.chosen.at("guess"), block == "32" ? "held" : "missed") << api << " " << spec;
          EXPECT_EQ(r.chosen.at("schedule"), "sequential") << api << " " << spec;
          EXPECT_TRUE(std::any_of(r.phases.begin(), r.phases.end(), [](const auto& ph) { return ph.name == "sample"; }))
              << api;
          continue;
        }
        const shader_era::executor& exec = dynamic_cast<shader_era::plan_algorithm&>(*probe).exec();
        const bool on_device = !(where == "host" || (where == "auto" && !exec.prefers_predicates()));
        EXPECT_EQ(r.chosen.at("choice"), on_device ? "device" : "host") << api << " " << where;
        const std::string ran = !on_device              ? "sequential"
                                : schedule != "auto"    ? schedule
                                : exec.prefers_rounds() ? "interleaved"
                                                        : "sequential";
        EXPECT_EQ(r.chosen.at("schedule"), ran) << api << " " << where << " " << spec;
        EXPECT_TRUE(std::any_of(r.phases.begin(), r.phases.end(), [](const auto& ph) { return ph.name == "sample"; }))
            << api;
      }
    EXPECT_THROW((void)run_case(reg, e, {{"model", (dir / "missing").string()}}, make_case("all:10"), {0, 1, false}),
                 usage_error)
        << api;
  }
  std::filesystem::remove_all(dir);
}

// With records saying that block 2048 is never more than 1 ns from the fastest (block 32 wins once,
// by 1 ns), no sample can pay for itself: choice=auto runs block 2048 without one, on every case.
TEST(shader_era, the_adaptive_algorithm_does_not_sample_where_choosing_cannot_pay) {
  const registry& reg = all_backends();
  const std::vector<std::string> apis = runnable_apis();
  if (apis.empty()) GTEST_SKIP() << "no plan API (gl, vk, vkfrag) can run here";
  const auto dir = records_folder("settle", apis, [](std::ostream& out, const std::string& api) {
    for (const char* p : {"0.05", "0.3", "0.7", "0.95"})
      out << record_line(api, "bt", "2048", p, 1000)
          << record_line(api, "bt", "32", p, std::string(p) == "0.95" ? 999 : 1002);
  });
  for (const auto& api : apis)
    for (const char* spec : {"uniform:64K:p=0.95", "uniform:64K:p=0.1", "removal:64K:k=0.5"}) {
      const record r = run_case(reg, reg.find(api + "/adaptive"), {{"model", dir.string()}}, make_case(spec),
                                {.warmup = 0, .reps = 2, .prepare = {.loop_check = true}});
      ASSERT_TRUE(r.verified) << api << " " << spec << ": " << r.mismatch << r.skipped.value_or("");
      EXPECT_EQ(r.chosen.at("block"), "2048") << api << " " << spec;
      EXPECT_EQ(r.chosen.at("choice"), "none") << api << " " << spec;
      for (const auto& ph : r.phases)
        EXPECT_TRUE(ph.name != "sample" && ph.name != "choose") << api << " " << spec << ": " << ph.name;
    }
  std::filesystem::remove_all(dir);
}

// choice=auto weighs the mean regret of the candidate it would run without a sample against what
// choosing costs: block 2048 loses 4·d on one case of four (its worst, less than block 32's 5·d, so
// it is the one), d on average. With d = 1 ns no device chooses faster, with d = 1 s every one
// does; either way what it weighed is d, and it settled exactly when that is below the price.
TEST(shader_era, the_adaptive_algorithm_weighs_the_mean_regret_against_choosing) {
  const registry& reg = all_backends();
  const std::vector<std::string> apis = runnable_apis();
  if (apis.empty()) GTEST_SKIP() << "no plan API (gl, vk, vkfrag) can run here";
  for (const double d : {1.0, 1e9}) {
    // A folder per d: the fitted model is kept per path for the process.
    const auto dir =
        records_folder(d == 1.0 ? "weigh-1ns" : "weigh-1s", apis, [&](std::ostream& out, const std::string& api) {
          for (const char* p : {"0.05", "0.3", "0.7", "0.95"}) {
            const bool last = std::string(p) == "0.95";
            out << record_line(api, "bt", "2048", p, 1000 + (last ? 4 * d : 0))
                << record_line(api, "bt", "32", p, 1000 + (last ? 0 : 5 * d));
          }
        });
    for (const auto& api : apis) {
      const algorithm_entry& e = reg.find(api + "/adaptive");
      const auto a = e.make();
      a->prepare(make_case("uniform:64K:p=0.5").w, resolve_params(e.info, {{"model", dir.string()}}), {});
      // What auto weighed is in the notes records carry, as numbers.
      const params w = a->notes();
      ASSERT_EQ(w.size(), 3u) << api << ": " << to_string(w);
      const double expected = std::stod(w.at("expected_regret_ns")), choosing = std::stod(w.at("choosing_ns")),
                   round_trip = std::stod(w.at("round_trip_ns"));
      EXPECT_NEAR(expected, d, 1e-6 * d) << api; // the records print 6 digits
      EXPECT_GT(choosing, 0) << api;
      const params chosen = a->chosen();
      const bool settled = expected < choosing + round_trip;
      EXPECT_EQ(settled, d == 1.0) << api << " d = " << d << ": choosing " << choosing << " + " << round_trip << " ns";
      EXPECT_EQ(chosen.at("choice") == "none", settled) << api << " d = " << d << ": " << chosen.at("choice");
      if (chosen.at("choice") == "device") {
        EXPECT_EQ(round_trip, 0) << api << ": the device chooses, nothing goes back";
      }
      // A record of the same case carries the same notes (the prices are measured once per process).
      const record r = run_case(reg, e, {{"model", dir.string()}}, make_case("uniform:64K:p=0.5"), {0, 1, false});
      EXPECT_TRUE(r.verified) << api << ": " << r.mismatch;
      EXPECT_EQ(r.notes, w) << api << ": " << to_string(r.notes);
      // Another choice weighs nothing, and its records say so by having no notes.
      const auto none = e.make();
      none->prepare(make_case("uniform:64K:p=0.5").w,
                    resolve_params(e.info, {{"model", dir.string()}, {"choice", "none"}}), {});
      EXPECT_TRUE(none->notes().empty()) << api << ": " << to_string(none->notes());
      if (settled) { EXPECT_EQ(chosen.at("block"), "2048") << api; }
    }
    std::filesystem::remove_all(dir);
  }
  EXPECT_TRUE(reg.find("cpu/sequential").make()->notes().empty());
}

// Speculating, the host leaves the guess (the candidate of least worst regret) only for a gain above
// what its first pass, run ahead of the choice, costs. With records where block 2048 beats block 32
// by 10 ns on the case, choice=host runs block 2048; choice=speculate keeps its guess, block 32
// (whose worst regret is those 10 ns, where block 2048 loses 1 ms on dense streams), whose first
// pass the pass model prices at more than 10 ns. Where block 32's records time its first pass's
// phase (reduce) at 0 ns, the records price it instead, and the guess gives way to block 2048.
// Nothing is skipped, so this holds on every plan API, OpenGL ES too.
TEST(shader_era, speculating_the_host_leaves_the_guess_only_for_more_than_its_first_pass) {
  const registry& reg = all_backends();
  const std::vector<std::string> apis = runnable_apis();
  if (apis.empty()) GTEST_SKIP() << "no plan API (gl, vk, vkfrag) can run here";
  for (const bool timed : {false, true}) {
    const auto dir =
        records_folder(timed ? "speculate-phases" : "speculate", apis, [&](std::ostream& out, const std::string& api) {
          const std::string phases =
              timed ? R"([{"name":"reduce","median_ns":0},{"name":"traverse","median_ns":1010}])" : "";
          for (const char* p : {"0.05", "0.3", "0.7", "0.95"})
            out << record_line(api, "bt", "2048", p, std::stod(p) < 0.5 ? 1000 : 1e6)
                << record_line(api, "bt", "32", p, 1010, phases);
        });
    for (const auto& api : apis)
      for (const char* choice : {"host", "speculate"}) {
        const record r =
            run_case(reg, reg.find(api + "/adaptive"), {{"model", dir.string()}, {"choice", choice}},
                     make_case("uniform:64K:p=0.05"), {.warmup = 0, .reps = 2, .prepare = {.loop_check = true}});
        const std::string where = api + " " + choice + (timed ? " (reduce timed at 0)" : "");
        ASSERT_TRUE(r.verified) << where << ": " << r.mismatch << r.skipped.value_or("");
        const bool keeps = std::string(choice) == "speculate" && !timed;
        EXPECT_EQ(r.chosen.at("block"), keeps ? "32" : "2048") << where;
        if (std::string(choice) == "speculate") { EXPECT_EQ(r.chosen.at("guess"), keeps ? "held" : "missed") << where; }
        EXPECT_TRUE(std::any_of(r.phases.begin(), r.phases.end(), [](const auto& ph) { return ph.name == "sample"; }))
            << where;
      }
    std::filesystem::remove_all(dir);
  }
}

// Every candidate concatenates as the adaptive algorithm is told (its concat, default the fixed
// algorithms' default), whatever the pass model or a record's candidate would have drawn; each
// method's output is verified like any other.
TEST(shader_era, the_adaptive_algorithms_candidates_concatenate_as_told) {
  const registry& reg = all_backends();
  const std::vector<std::string> apis = runnable_apis();
  if (apis.empty()) GTEST_SKIP() << "no plan API (gl, vk, vkfrag) can run here";
  for (const auto& api : apis) {
    const algorithm_entry& e = reg.find(api + "/adaptive");
    const auto axis =
        std::find_if(e.info.axes.begin(), e.info.axes.end(), [](const param_axis& a) { return a.key == "concat"; });
    ASSERT_NE(axis, e.info.axes.end()) << api;
    const auto fixed = std::find_if(reg.find(api + "/bt").info.axes.begin(), reg.find(api + "/bt").info.axes.end(),
                                    [](const param_axis& a) { return a.key == "concat"; });
    EXPECT_EQ(axis->default_value, fixed->default_value) << api << ": the fixed algorithms' default";
    for (const std::string& method : axis->accepted)
      for (const char* choice : {"none", "host"}) {
        const record r = run_case(reg, e, {{"concat", method}, {"choice", choice}}, make_case("uniform:64K:p=0.5"),
                                  {.warmup = 0, .reps = 1, .prepare = {.loop_check = true}});
        ASSERT_TRUE(r.verified) << api << " concat=" << method << " choice=" << choice << ": " << r.mismatch
                                << r.skipped.value_or("");
        EXPECT_EQ(r.chosen.at("concat"), method) << api << " choice=" << choice;
      }
  }
}

// Horn's phases (scan, search, count, concat) and Binary-Tree's (reduce, traverse, count, concat)
// differ: interleaved, the candidates still run round by round, in one order of every phase name.
TEST(shader_era, candidates_whose_phases_differ_interleave_too) {
  const registry& reg = all_backends();
  const std::vector<std::string> apis = runnable_apis();
  if (apis.empty()) GTEST_SKIP() << "no plan API (gl, vk, vkfrag) can run here";
  const auto dir = records_folder("interleave", apis, [](std::ostream& out, const std::string& api) {
    for (const char* p : {"0.05", "0.3", "0.7", "0.95"})
      out << record_line(api, "horn", "2048", p, 100 + 1000 * std::stod(p)) << record_line(api, "bt", "32", p, 600);
  });
  for (const auto& api : apis) {
    const auto probe = reg.find(api + "/bt").make();
    if (!dynamic_cast<shader_era::plan_algorithm&>(*probe).exec().predicates()) continue; // no skipping here (ES)
    for (const auto& [spec, algorithm] : std::vector<std::pair<std::string, std::string>>{
             {"uniform:64K:p=0.1", "horn"}, {"uniform:64K:p=0.9", "bt"}, {"removal:64K:k=0.1", "bt"}}) {
      const record r = run_case(reg, reg.find(api + "/adaptive"),
                                {{"model", dir.string()}, {"choice", "device"}, {"schedule", "interleaved"}},
                                make_case(spec), {.warmup = 0, .reps = 2, .prepare = {.loop_check = true}});
      ASSERT_TRUE(r.verified) << api << " " << spec << ": " << r.mismatch << r.skipped.value_or("");
      EXPECT_EQ(r.chosen.at("algorithm"), algorithm) << api << " " << spec;
      EXPECT_EQ(r.chosen.at("schedule"), "interleaved") << api << " " << spec;
      for (const char* phase : {"scan", "search", "reduce", "traverse", "count", "concat"}) // every candidate's, timed
        EXPECT_TRUE(std::any_of(r.phases.begin(), r.phases.end(), [&](const auto& ph) { return ph.name == phase; }))
            << api << " " << spec << ": " << phase;
    }
  }
  std::filesystem::remove_all(dir);
}

} // namespace
} // namespace winnow
