// winnow — GPU stream compaction through three generations of GPU programming.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <iostream>

#include "child.hpp"
#include "commands.hpp"
#include "embedded.hpp"
#include "winnow/error.hpp"
#include "winnow/record.hpp"
#include "winnow/settings.hpp"

namespace {

/// CLI::Range lets NaN through (every comparison with it is false): numbers must also be finite.
const CLI::Validator finite_number(
    [](std::string& text) -> std::string {
      try {
        return std::isfinite(std::stod(text)) ? "" : "must be a finite number, not " + text;
      } catch (const std::exception&) { return "must be a number, not " + text; }
    },
    "FINITE");

/// A comma-separated list as given (`--api cpu,,gl` has an empty element, which CLI11's own
/// splitting would drop without a word); split by split_lists() after parsing.
const CLI::Validator non_empty(
    [](std::string& text) -> std::string {
      return text.empty() || text.front() == ',' || text.back() == ',' || text.find(",,") != std::string::npos
                 ? "has an empty element: " + text
                 : "";
    },
    "LIST");

/// The comma-separated elements of every occurrence of a list option.
void split_lists(std::vector<std::string>& given) {
  std::vector<std::string> out;
  for (const auto& text : given)
    for (std::size_t start = 0; start <= text.size();) {
      const std::size_t end = std::min(text.find(',', start), text.size());
      out.push_back(text.substr(start, end - start));
      start = end + 1;
    }
  given = std::move(out);
}

/// --max-noise PCT and --timeout S (nvbench's): repeat until the total's relative noise is under
/// PCT % or S seconds of timed repetitions have passed. Returns the --max-noise option.
CLI::Option* add_noise_options(CLI::App* cmd, double& max_noise_pct, double& timeout_s) {
  auto* opt =
      cmd->add_option("--max-noise", max_noise_pct,
                      "repeat beyond --reps until the total's relative noise (stddev / mean) is under this many %")
          ->check(finite_number)
          ->check(CLI::Range(0.001, 100.0));
  cmd->add_option("--timeout", timeout_s, "… or until this many seconds of timed repetitions have passed")
      ->capture_default_str()
      ->check(finite_number)
      ->check(CLI::Range(0.001, 86400.0))
      ->needs(opt);
  return opt;
}

/// An option of milliseconds, 0 … 60000 (a minute: more is a typo), into a double or an optional one.
template <class T> CLI::Option* add_ms_option(CLI::App* cmd, const std::string& name, T& ms, const std::string& help) {
  return cmd->add_option(name, ms, help)->check(finite_number)->check(CLI::Range(0.0, 60000.0));
}

/// --check host|device: where a record's result is verified (run_options::check).
void add_check_option(CLI::App* cmd, winnow::check_place& where) {
  using winnow::check_place;
  cmd->add_option_function<std::string>(
         "--check", [&where](const std::string& v) { where = v == "host" ? check_place::host : check_place::device; },
         "where results are verified: device (where they lie, on backends that can: CUDA, Vulkan, GL 4.5/ES 3.1; read "
         "back only to name a difference) or host (read back and compared)")
      ->check(CLI::IsMember({"host", "device"}))
      ->default_str("device");
}

} // namespace

int main(int argc, char** argv) {
  using namespace winnow::cli;
  winnow::set_command_line(argc, argv);
  keep_arguments(argc, argv);
  CLI::App app{"winnow: stream compaction on OpenGL, Vulkan, CUDA and the CPU, one corpus, one harness", "winnow"};
  app.require_subcommand(1);
  app.fallthrough(); // options of winnow itself (--debug) may follow the subcommand
  bool debug = false;
  app.add_flag("--debug", debug,
               "debug contexts: the GL debug context (synchronous debug output) and the Vulkan validation layer; "
               "records say so (default: WINNOW_DEBUG, else off)");
  app.set_version_flag("--version", std::string("winnow ") + winnow::version());
  app.footer("`winnow help` prints the full guide (corpus grammar, suites, records).");

  app.add_subcommand("help", "print the guide: commands, corpus grammar, suites, records");
  bool list_as_json = false;
  auto* list_cmd =
      app.add_subcommand("list", "every backend and algorithm, available or not (with the reason), with parameters");
  list_cmd->add_flag("--json", list_as_json, "the same as one JSON object (for scripts)");
  std::vector<std::string> list_apis;
  list_cmd->add_option("--api", list_apis, "only these apis (comma-separated)")->check(non_empty);

  run_args run;
  auto* run_cmd = app.add_subcommand("run", "one algorithm on one case, verified, with a per-phase table");
  run_cmd->add_option("--algo", run.algo, "api/name, e.g. cpu/redzone")->required();
  run_cmd->add_option("--case", run.spec, "corpus spec, e.g. uniform:4M:p=0.1")->required();
  run_cmd->add_option("--param", run.params, "key=value, repeatable (e.g. --param threads=2)");
  run_cmd->add_option("--reps", run.options.reps, "timed repetitions")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  run_cmd->add_option("--warmup", run.options.warmup, "untimed repetitions first")
      ->capture_default_str()
      ->check(CLI::Range(0, 100000));
  run_cmd->add_flag("--cold", run.options.cold, "flush the device's caches before every repetition");
  run_cmd->add_flag("--loop-check", run.options.prepare.loop_check,
                    "shader-era algorithms: fail when a search loop takes more trips than its proven bound");
  run_cmd->add_flag("--per-pass", run.options.prepare.per_pass,
                    "shader-era algorithms: time every pass as a phase of its own (\"PHASE: PASS\")");
  run.options.check = winnow::check_place::device;
  add_check_option(run_cmd, run.options.check);
  double run_warmup_ms = 200;
  add_ms_option(run_cmd, "--warmup-time", run_warmup_ms, "and warm up for at least this many ms (GPU clocks ramp up)")
      ->capture_default_str();
  double run_busy_ms = 30;
  add_ms_option(run_cmd, "--busy-time", run_busy_ms,
                "where NVML reads the clock: time runs beyond --reps until the runs have kept the device busy "
                "this many ms")
      ->capture_default_str();
  double run_max_noise = 0, run_timeout_s = 15;
  add_noise_options(run_cmd, run_max_noise, run_timeout_s);
  auto* run_out = run_cmd->add_option("--out", run.out, "append nothing, write the record: FILE.jsonl or FILE.csv");

  bench_args bench;
  auto* bench_cmd =
      app.add_subcommand("bench", "sweep a suite: algorithms × cases × parameters; JSONL + CSV into --out");
  auto* bench_suite =
      bench_cmd->add_option("--suite", bench.suite, "suite name or a .json file")->capture_default_str();
  bench_cmd->add_option("--api", bench.apis, "only these apis (comma-separated)")->check(non_empty);
  bench_cmd->add_option("--algo", bench.algos, "only these algorithms (comma-separated api/name or globs: 'gl/*')")
      ->check(non_empty);
  bench_cmd->add_option(
      "--case", bench.cases,
      "these cases instead of the suite's, or globs that pick from the suite's ('uniform:*') (repeatable)");
  bench_cmd->add_option(
      "--param", bench.params,
      "sweep [ALGORITHM:]KEY=V1,V2,… over every selected algorithm with KEY, or those ALGORITHM (a glob) "
      "matches; in place of the suite's values; repeatable, all combinations");
  bench_cmd->add_option("--name", bench.name,
                        "results file name in --out (default: the suite's; 'custom' for --case specs without --suite)");
  bench_cmd->add_flag("--list", bench.list, "print what would run (algorithm, parameters, case) and run nothing");
  bench_cmd->add_option("--reps", bench.reps, "timed repetitions (default: the suite's)")->check(CLI::Range(1, 100000));
  bench_cmd->add_option("--warmup", bench.warmup, "untimed repetitions (default: the suite's)")
      ->check(CLI::Range(0, 100000));
  bench_cmd->add_flag("--cold", bench.cold, "flush the device's caches before every repetition");
  bench_cmd->add_flag("--loop-check", bench.loop_check,
                      "shader-era algorithms: fail when a search loop takes more trips than its proven bound");
  add_check_option(bench_cmd, bench.check);
  add_ms_option(bench_cmd, "--warmup-time", bench.warmup_ms,
                "warm up for at least this many ms (default: the suite's, else 200)");
  add_ms_option(bench_cmd, "--busy-time", bench.busy_ms,
                "where NVML reads the clock: time runs beyond --reps until a record's runs have kept the device "
                "busy this many ms (default: the suite's, else 30)");
  add_ms_option(bench_cmd, "--min-time", bench.min_time_ms,
                "repeat beyond --reps until the timed runs add up to this many ms of measured time, or "
                "--timeout passes (nvbench's --min-time; default: the suite's, else 0)");
  double bench_max_noise = 0;
  auto* bench_noise = add_noise_options(bench_cmd, bench_max_noise, bench.timeout_s);
  bench_cmd->add_option("--out", bench.out, "results folder")->capture_default_str();
  bench_cmd->add_flag("--resume", bench.resume,
                      "keep the records an earlier (interrupted) run left in --out and run only the rest "
                      "(same algorithm, parameters, case and device)");
  bench_cmd
      ->add_option(
          "--seeds", bench.seeds,
          "every case that has a seed N times, with seeds s … s+N-1 (s: the case's own); NAME.seeds.jsonl/.csv "
          "then carry each phase's logarithmic mean and the largest total over the seeds (the Redzone paper's "
          "statistics; default: the suite's, else 1)")
      ->check(CLI::Range(1, 1000));
  bench_cmd->add_flag("--quick", bench.quick, "the suite's quick section: small sizes, few parameters and repetitions");
  bench_cmd->add_option("--shard", bench.shard,
                        "I/N (0 <= I < N): only shard I of N of the plan's records, balanced by estimated cost; "
                        "`winnow merge` joins the shards' folders");
  bench_cmd->add_flag("--json", bench.json, "with --list: one JSON object (records, estimated seconds, apis not run)");

  reproduce_args reproduce;
  auto* reproduce_cmd = app.add_subcommand(
      "reproduce",
      "one paper end to end: calibrate, its suites (one process per api), report.md with tables, figures, verdicts");
  std::string papers;
  for (const auto& name : reproduce_papers()) papers += name + ", ";
  reproduce_cmd->add_option("paper", reproduce.paper, papers + "or all")->required();
  reproduce_cmd->add_option("--out", reproduce.out, "folder for the records, report.md and the figures")->required();
  reproduce_cmd->add_flag("--quick", reproduce.quick,
                          "small sizes: every report end to end in minutes, even on software drivers");
  reproduce_cmd->add_flag("--fresh", reproduce.fresh,
                          "measure everything again (default: keep what --out already holds)");
  reproduce_cmd->add_option(
      "--shard", reproduce.shard,
      "I/N (0 <= I < N): shard I of N of every bench step into --out, no report; `winnow merge` joins "
      "the shards, and `winnow reproduce` on the merged folder writes the report");
  reproduce_cmd->add_option(
      "--devices", reproduce.devices,
      "all or 0,2,…: one shard per device (a child each, with CUDA_VISIBLE_DEVICES and WINNOW_DEVICE "
      "set), into --out/shards/K, then merge into --out and the report");
  reproduce_cmd->add_flag("--list", reproduce.list, "print each step with its records and estimated time; run nothing");
  add_check_option(reproduce_cmd, reproduce.check);

  std::string corpus_spec, corpus_out;
  auto* corpus_cmd =
      app.add_subcommand("corpus", "write a case as a PNG (white = valid, black = invalid, gray = padding)");
  corpus_cmd->add_option("spec", corpus_spec, "corpus spec")->required();
  corpus_cmd->add_option("--out", corpus_out, "FILE.png")->required();

  trace_args trace;
  auto* trace_cmd =
      app.add_subcommand("trace", "a shader-era algorithm pass by pass: a picture of what each pass writes");
  trace_cmd->add_option("--algo", trace.algo, "gl/, vkfrag/ or vk/ horn, jj, rlz, bt")->required();
  trace_cmd->add_option("--case", trace.spec, "corpus spec (at most 16M elements), e.g. file:coins.png")->required();
  trace_cmd->add_option("--param", trace.params, "key=value, repeatable (e.g. --param block=64)");
  trace_cmd->add_option("--out", trace.out, "folder for NN-<phase>-<pass>.png, contact.png and trace.json")->required();

  trace_args view;
  std::string view_script;
  auto* view_cmd =
      app.add_subcommand("view", "a window showing a GL shader-era algorithm pass by pass (needs a display)");
  view_cmd->add_option("--algo", view.algo, "gl/horn, gl/jj, gl/rlz or gl/bt")->required();
  view_cmd->add_option("--case", view.spec, "corpus spec (at most 16M elements)")->required();
  view_cmd->add_option("--param", view.params, "key=value, repeatable");
  view_cmd->add_option("--script", view_script,
                       "commands, one per frame: next,prev,first,last,block,scan,concat,rerun,zoom_in,zoom_out,"
                       "screenshot:FILE.png,quit");

  std::string compare_before, compare_after;
  double compare_threshold = 0;
  auto* compare_cmd =
      app.add_subcommand("compare", "per-record ratios between two benches, a change flagged only beyond the noise");
  compare_cmd->add_option("before", compare_before, "results folder or .jsonl file")->required();
  compare_cmd->add_option("after", compare_after, "results folder or .jsonl file")->required();
  compare_cmd->add_option("--threshold", compare_threshold, "and only beyond this many % (default 0: the noise alone)")
      ->check(finite_number)
      ->check(CLI::Range(0.0, 1000.0));

  std::string merge_out;
  std::vector<std::string> merge_shards;
  auto* merge_cmd = app.add_subcommand(
      "merge", "join the folders of a sharded bench or reproduce (--shard I/N) into one, as one run writes it");
  merge_cmd->add_option("--out", merge_out, "the merged folder")->required();
  merge_cmd->add_option("shards", merge_shards, "the shards' folders (each --out of a --shard run)")->required();

  std::vector<std::string> calibrate_apis;
  std::string calibrate_out;
  auto* calibrate_cmd = app.add_subcommand(
      "calibrate", "measure each device's pass cost and copy bandwidth (for pass models); on cuda also Billeter et "
                   "al.'s prefix sum and radix sort against CUB's, and the CIS 565 scans alone");
  calibrate_cmd->add_option("--api", calibrate_apis, "only these apis (comma-separated)")->check(non_empty);
  auto* calibrate_out_opt =
      calibrate_cmd->add_option("--out", calibrate_out, "also write the constants as JSON Lines (FILE.jsonl)");

  if (argc > 1 && argv[1][0] != '-') {
    // CLI11 would only say "a subcommand is required"; name the unknown one and the known ones.
    std::string known;
    std::vector<std::string> names;
    bool found = false;
    for (const auto* sub : app.get_subcommands([](CLI::App*) { return true; })) {
      found = found || sub->get_name() == argv[1];
      known += (known.empty() ? "" : ", ") + sub->get_name();
      names.push_back(sub->get_name());
    }
    if (!found) {
      std::cerr << "winnow: unknown command '" << argv[1] << "'" << winnow::did_you_mean(argv[1], names)
                << " (known: " << known << ")\n";
      return 2;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) { return app.exit(e); } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) { return app.exit(e); } catch (const CLI::ParseError& e) {
    app.exit(e); // prints the message
    return 2;
  }
  split_lists(bench.apis);
  split_lists(bench.algos);
  split_lists(calibrate_apis);
  split_lists(list_apis);
  try {
    if (debug) winnow::set_debug(true);
    if (app.got_subcommand("help")) {
      std::cout << help_text;
      return 0;
    }
    if (list_cmd->parsed()) return list_command(list_as_json, list_apis);
    if (reproduce_cmd->parsed()) {
      reproduce.debug = debug;
      return reproduce_command(reproduce);
    }
    if (run_cmd->parsed()) {
      run.options.warmup_ns = run_warmup_ms * 1e6;
      run.options.busy_ns = run_busy_ms * 1e6;
      run.options.busy_timed = winnow::busy_in_timed_runs();
      run.options.max_noise = run_max_noise / 100;
      run.options.timeout_ns = run_timeout_s * 1e9;
      run.out_given = run_out->count() > 0;
      return run_command(run);
    }
    if (bench_cmd->parsed()) {
      if (bench_noise->count()) bench.max_noise = bench_max_noise / 100;
      bench.suite_given = bench_suite->count() > 0;
      return bench_command(bench);
    }
    if (compare_cmd->parsed()) return compare_command(compare_before, compare_after, compare_threshold / 100);
    if (merge_cmd->parsed()) return merge_command(merge_out, merge_shards);
    if (corpus_cmd->parsed()) return corpus_command(corpus_spec, corpus_out);
    if (calibrate_cmd->parsed())
      return calibrate_command(calibrate_apis, calibrate_out_opt->count() ? &calibrate_out : nullptr);
    if (trace_cmd->parsed()) return trace_command(trace);
    if (view_cmd->parsed()) return view_command(view, view_script);
  } catch (const winnow::usage_error& e) {
    std::cerr << "winnow: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "winnow: error: " << e.what() << "\n";
    return 1;
  }
  return 2;
}
