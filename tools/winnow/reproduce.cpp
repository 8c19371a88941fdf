// `winnow reproduce PAPER --out DIR`: one command per paper. Calibrates, runs each suite with each
// API in a child process of its own (docs/driver-quirks.md), keeps a manifest of what ran and why
// something did not, then writes DIR/report.md with tools/report/reproduce.py.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "child.hpp"
#include "commands.hpp"
#include "results_folder.hpp"
#include "shard.hpp"
#include "step_time.hpp"
#include "table.hpp"
#include "winnow/error.hpp"
#include "winnow/record.hpp"

#ifndef WINNOW_REPORT_DIR
#define WINNOW_REPORT_DIR ""
#endif

namespace winnow::cli {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

struct bench_step {
  std::string suite;
  std::vector<std::string> apis;
  /// More bench arguments; "{api_dir}" stands for DIR/API (where an earlier step's records are).
  std::vector<std::string> args = {};
  /// The results' name where it is not the suite's; such a step runs the suite over other cases.
  std::string name = {};
  /// Its cases: the real images of tools/report/held_back_images.py, made into DIR/held-back-SIDE.
  bool held_back_images = false;
};

struct paper {
  std::string name;
  std::vector<std::string> calibrate; ///< apis whose calibration the report needs (pass models, copy rooflines)
  std::vector<bench_step> benches;
};

/// The papers and what each needs. `all` is their union, each step once.
const std::vector<paper>& papers() {
  // The adaptive algorithm with the pass model and with the model fitted from the run's moreira records.
  static const std::vector<std::string> both_models = {"--param", "*/adaptive:model=pass,{api_dir}/moreira.jsonl"};
  static const std::vector<paper> list = {
      // The adaptive algorithm's model is fitted from the moreira suite's records of the same run;
      // moreira-era is Table 1 as the paper's GPU ran it (256-trip loops, Horn's search by steps).
      // adaptive-images: the same suite on real images the model never saw (held_back_images.py).
      {"moreira",
       {"gl", "vkfrag", "vk"},
       {{"moreira", {"gl", "vkfrag", "vk"}},
        {"moreira-era", {"gl", "vkfrag", "vk"}},
        {"adaptive", {"gl", "vkfrag", "vk"}, both_models},
        {"adaptive", {"gl", "vkfrag", "vk"}, both_models, "adaptive-images", true}}},
      {"cross-api", {"gl", "vkfrag", "vk"}, {{"paths", {"gl", "vkfrag", "vk"}}}},
      // preserve: the paper's future work, compaction from a preserve list, on both of its APIs.
      {"redzone", {}, {{"redzone", {"cuda"}}, {"redzone-r", {"cuda"}}, {"preserve", {"cuda", "cpu"}}}},
      // vk: Table 1 through Vulkan compute; gl: the geometry-shader compactor's draw taken apart
      {"billeter", {"cuda", "vk", "gl"}, {{"billeter", {"cuda", "gl"}}}},
      {"cpu", {}, {{"cpu", {"cpu"}}}},
      {"cis565", {"cuda"}, {{"cis565", {"cpu", "cuda"}}}}, // cuda's calibrate step times the scans alone
      // The project's own targets (issue 58): every time against the copy rooflines of the same run,
      // Redzone's fill against its floor (cuda's calibration measures both).
      {"limit",
       {"cuda", "vk"},
       {{"limit", {"cuda", "vk"}}, {"limit-wide", {"cuda", "vk"}}, {"limit-redzone", {"cuda"}}}},
  };
  return list;
}

struct step {
  std::string kind, api, suite;    // kind: calibrate | bench
  std::string name;                ///< the results' name: the suite's, or bench_step::name
  bool held_back_images = false;   ///< bench_step::held_back_images
  std::vector<std::string> args;   ///< bench_step::args
  std::vector<std::string> papers; ///< the papers whose report needs this step
  std::vector<std::string> argv;
};

std::vector<const paper*> chosen(const std::string& name) {
  std::vector<const paper*> out;
  std::string known;
  for (const auto& p : papers()) {
    if (name == "all" || name == p.name) out.push_back(&p);
    known += p.name + ", ";
  }
  if (out.empty()) throw usage_error("reproduce: unknown paper '" + name + "' (known: " + known + "all)");
  return out;
}

/// Which apis can run here, and why not: `winnow list --json` in a child, so that this process
/// holds no GL context or Vulkan device while the benches run.
std::map<std::string, std::string> unavailable_apis(const std::string& self) {
  const child_result r = run_child({self, "list", "--json"}, true);
  if (r.exit != 0) throw error("reproduce: `winnow list --json` failed (exit " + std::to_string(r.exit) + ")");
  std::map<std::string, std::string> out;
  const auto list = nlohmann::json::parse(r.output);
  for (const auto& b : list.at("backends"))
    if (!b.at("available").get<bool>()) out[b.at("api").get<std::string>()] = b.at("reason").get<std::string>();
  return out;
}

/// The held-back real images' `file:` cases, made into `images` by held_back_images.py (beside the
/// report script) unless a run before made them there, or why they cannot be had. A folder counts as
/// made once it holds cases.txt, which the script writes last. A case spec names the folder as DIR
/// was given, so a resumed run finds its records only under the same spelling of DIR.
struct held_back {
  std::vector<std::string> cases;
  std::string why_not;
};

held_back held_back_cases(const fs::path& images, int side, const std::string& python, const fs::path& script) {
  // A case spec cannot hold a ':' (its key separator), and bench reads *, ? and [ as a pattern.
  if (images.string().find_first_of(":*?[") != std::string::npos)
    return {{}, "the images' folder " + images.string() + " has a character a case spec cannot hold (:, *, ? or [)"};
  const fs::path list = images / "cases.txt";
  if (!fs::is_regular_file(list)) {
    const std::string why = "the held-back images could not be made (" + python + " " + script.string() +
                            " needs numpy and python3-matplotlib, whose sample data they come from; or make them "
                            "elsewhere into " +
                            images.string() + " and bring them along)";
    try {
      const child_result r =
          run_child({python, script.string(), images.string(), "--side", std::to_string(side)}, true);
      if (r.exit != 0 || !fs::is_regular_file(list)) return {{}, why + ": exit " + std::to_string(r.exit)};
    } catch (const std::exception& e) { return {{}, why + ": " + e.what()}; }
  }
  held_back out;
  std::ifstream in(list);
  for (std::string name; std::getline(in, name);) {
    if (name.empty()) continue;
    const fs::path png = images / name;
    if (!fs::is_regular_file(png)) return {{}, list.string() + " names " + name + ", which is not there"};
    out.cases.push_back("file:" + png.string());
  }
  if (out.cases.empty()) out.why_not = list.string() + " names no image";
  return out;
}

/// Whether a bench's status file says every planned record is there.
bool complete(const fs::path& status) {
  if (!fs::is_regular_file(status)) return false;
  const auto j = nlohmann::json::parse(std::ifstream(status), nullptr, false);
  return j.is_object() && j.value("complete", false);
}

/// Debian's python3 is where python3-matplotlib lives; another python3 on PATH may lack it (the
/// report is still written, without its figures, and says so).
std::string python() { return fs::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3"; }

/// WINNOW_REPORT_DIR, else an installed tree's share/winnow/report beside bin/, else this checkout's.
fs::path report_script() {
  const char* env = std::getenv("WINNOW_REPORT_DIR");
  if (env && *env) return fs::path(env) / "reproduce.py";
  const fs::path installed = fs::path(self_executable()).parent_path().parent_path() / "share" / "winnow" / "report";
  if (fs::is_regular_file(installed / "reproduce.py")) return installed / "reproduce.py";
  return fs::path(WINNOW_REPORT_DIR) / "reproduce.py";
}

/// Today in UTC, as YYYY-MM-DD.
std::string utc_day() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  ::gmtime_r(&now, &tm);
  char day[16];
  std::strftime(day, sizeof day, "%Y-%m-%d", &tm);
  return day;
}

void write_manifest(const fs::path& dir, const json& manifest) {
  write_atomically(dir / "reproduce.json", manifest.dump(2) + "\n");
}

/// A bench's status file as its bench wrote it, or a usage error naming the file.
nlohmann::json read_status(const fs::path& status) {
  const auto j = nlohmann::json::parse(std::ifstream(status), nullptr, false);
  const bool ok = j.is_object() && j.contains("complete") && j["complete"].is_boolean() && j.contains("records") &&
                  j["records"].is_number_unsigned() && j.contains("not_run") && j["not_run"].is_object() &&
                  std::all_of(j["not_run"].begin(), j["not_run"].end(), [](const auto& v) { return v.is_string(); });
  if (!ok)
    throw usage_error(
        "reproduce: " + status.string() +
        " is not a status file as bench writes it; remove it (and the records beside it), or use --fresh");
  return j;
}

/// What a bench child left in its status file: the reason its api could not run, if so.
std::optional<std::string> not_run_reason(const fs::path& status, const std::string& api) {
  if (!fs::exists(status)) return std::nullopt;
  const auto j = read_status(status);
  if (j.at("records").get<std::size_t>() == 0 && j.at("not_run").contains(api))
    return j.at("not_run").at(api).get<std::string>();
  return std::nullopt;
}

/// What must hold in DIR before any work, so that nothing is measured for a report that cannot be
/// written: each api's folder is a folder, each file winnow writes there (or the report script writes
/// in DIR) is a file, every status file a run would read is whole, and DIR holds no other paper's
/// report, which this one would replace. Usage errors naming the path.
void check_out_folder(const fs::path& dir, const std::vector<const paper*>& list, bool fresh) {
  const auto must_be_file = [](const fs::path& p) {
    const auto st = fs::symlink_status(p);
    if (fs::exists(st) && !fs::is_regular_file(st))
      throw usage_error("reproduce: " + p.string() + " is " +
                        (fs::is_directory(st) ? "a folder"
                         : fs::is_symlink(st) ? "a symbolic link"
                                              : "not a regular file") +
                        " where winnow writes a file; remove it or choose another --out");
  };
  for (const char* name : {"reproduce.json", "report.md", "report.json", "report.md.tmp", "report.json.tmp"})
    must_be_file(dir / name);
  if (const fs::path old = dir / "reproduce.json"; fs::is_regular_file(old)) {
    const auto j = nlohmann::json::parse(std::ifstream(old), nullptr, false);
    if (!j.is_object() || !j.contains("papers") || !j["papers"].is_array() ||
        !std::all_of(j["papers"].begin(), j["papers"].end(), [](const auto& v) { return v.is_string(); }))
      throw usage_error("reproduce: " + old.string() +
                        " is not a manifest as reproduce writes it; remove it or choose another --out");
    std::string others;
    for (const auto& earlier : j["papers"])
      if (std::none_of(list.begin(), list.end(), [&](const paper* p) { return p->name == earlier.get<std::string>(); }))
        others += (others.empty() ? "" : ", ") + earlier.get<std::string>();
    if (!others.empty())
      throw usage_error("reproduce: " + dir.string() + " holds the reproduction of " + others +
                        " (reproduce.json); this one would replace its report: choose another --out, or reproduce them "
                        "together (all)");
  }
  for (const paper* p : list) {
    std::vector<std::string> apis = p->calibrate;
    for (const auto& b : p->benches) apis.insert(apis.end(), b.apis.begin(), b.apis.end());
    for (const auto& api : apis) {
      const fs::path api_dir = dir / api;
      const auto st = fs::symlink_status(api_dir);
      if (fs::exists(st) && !fs::is_directory(st))
        throw usage_error("reproduce: " + api_dir.string() + " is not a folder, and the " + api +
                          " records go there; remove it or choose another --out");
      must_be_file(api_dir / "calibrate.jsonl");
      for (const auto& b : p->benches) {
        const std::string name = b.name.empty() ? b.suite : b.name;
        for (const char* suffix : {".jsonl", ".csv", ".status.json", ".journal.jsonl"})
          must_be_file(api_dir / (name + suffix));
        if (const fs::path status = api_dir / (name + ".status.json"); !fresh && fs::exists(status))
          (void)read_status(status);
      }
    }
  }
}

/// `--list`: each step with its records and estimated time (the bench's own `--list --json`, in a
/// child as the step would run, so this process holds no device), and why a step will not run. A
/// step that cannot run here is estimated too, as where its device is (its bench's "elsewhere"): a
/// login node can size a Slurm campaign for GPU nodes it cannot run on itself.
int list_steps(const std::vector<step>& steps, const std::map<std::string, std::string>& missing,
               const std::function<bool(const step&)>& deferred, const std::optional<shard_spec>& shard) {
  constexpr double calibrate_seconds = 10; // measured: 2 s (gl) to 15 s (cuda, with its scans) on an H200
  table t({"step", "api", "records", "estimate"});
  double total = 0, there_total = 0;
  std::size_t records = 0, there_records = 0;
  for (const auto& s : steps) {
    const std::string what = s.kind + (s.suite.empty() ? "" : " " + s.name);
    const auto not_here = missing.find(s.api);
    if (shard && s.kind == "calibrate" && shard->index != 0) t.add({what, s.api, "-", "on shard 0"});
    else if (deferred(s)) t.add({what, s.api, "-", "after the merge"});
    else if (s.kind == "calibrate") {
      t.add({what, s.api, "-",
             not_here != missing.end() ? "not run here: " + not_here->second : format_clock(calibrate_seconds)});
      (not_here != missing.end() ? there_total : total) += calibrate_seconds;
    } else {
      std::vector<std::string> argv = s.argv;
      std::erase(argv, std::string("--resume"));
      argv.insert(argv.end(), {"--list", "--json"});
      const child_result r = run_child(argv, true);
      const auto j = nlohmann::json::parse(r.output, nullptr, false);
      if (r.exit != 0 || !j.is_object() || !j.contains("records")) {
        t.add({what, s.api, "?", "its plan failed (exit " + std::to_string(r.exit) + ")"});
        continue;
      }
      if (not_here != missing.end()) {
        const auto n = j.at("elsewhere").at("records").get<std::size_t>();
        const double seconds = j.at("elsewhere").at("seconds").get<double>();
        there_records += n;
        there_total += seconds;
        t.add({what, s.api, "(" + std::to_string(n) + ")",
               "not run here: " + not_here->second + "; there " + format_clock(seconds)});
        continue;
      }
      const auto n = j.at("records").get<std::size_t>();
      const double seconds = j.at("seconds").get<double>();
      records += n;
      total += seconds;
      t.add({what, s.api, std::to_string(n), format_clock(seconds)});
    }
  }
  std::cout << t.str() << "\n"
            << records << " records"
            << (shard ? " in shard " + std::to_string(shard->index) + "/" + std::to_string(shard->count) : "")
            << ", an estimated " << format_clock(total)
            << " before the report (docs/cli.md, \"Sharding\", gives the model; a software driver takes far longer)\n";
  if (there_records || there_total > 0)
    std::cout << "The steps that cannot run here: " << there_records << " records, an estimated "
              << format_clock(there_total)
              << " on a machine with their devices (a GPU's clock watched, its results checked on it)\n";
  return 0;
}

} // namespace

std::vector<std::string> reproduce_papers() {
  std::vector<std::string> out;
  for (const auto& p : papers()) out.push_back(p.name);
  return out;
}

int reproduce_command(const reproduce_args& a) {
  const auto list = chosen(a.paper);
  if (a.out.empty()) throw usage_error("reproduce: --out must name a folder");
  const std::optional<shard_spec> shard = a.shard.empty() ? std::nullopt : std::optional(parse_shard(a.shard));
  if (!a.devices.empty()) {
    if (shard) throw usage_error("reproduce: --devices runs the shards itself; it takes no --shard");
    return reproduce_on_devices(a);
  }
  const fs::path dir = a.out;
  const fs::path script = report_script();
  if (!fs::is_regular_file(script))
    throw usage_error("reproduce: the report script " + script.string() +
                      " is missing (set WINNOW_REPORT_DIR to the folder holding tools/report/reproduce.py)");
  std::optional<results_folder> lock; // the folder's lock: one reproduce (or bench) at a time
  if (!a.list) {
    lock.emplace(dir, "reproduce");
    check_out_folder(dir, list, a.fresh);
  }
  const std::string self = self_executable();
  // The children run as `self`; their records name the program as this command was typed.
  if (!std::getenv("WINNOW_ARGV0")) ::setenv("WINNOW_ARGV0", typed_program().c_str(), 1);
  const auto missing = unavailable_apis(self);

  std::vector<step> steps; // each once, however many papers need it
  auto add = [&](const std::string& kind, const std::string& api, const std::string& suite, const std::string& paper,
                 const bench_step* b = nullptr) {
    const std::string name = b && !b->name.empty() ? b->name : suite;
    for (auto& s : steps)
      if (s.kind == kind && s.api == api && s.name == name) return s.papers.push_back(paper);
    steps.push_back(
        {kind, api, suite, name, b && b->held_back_images, b ? b->args : std::vector<std::string>{}, {paper}, {}});
  };
  json names = json::array();
  for (const paper* p : list) {
    names.push_back(p->name);
    for (const auto& api : p->calibrate) add("calibrate", api, "", p->name);
    for (const auto& b : p->benches)
      for (const auto& api : b.apis) add("bench", api, b.suite, p->name, &b);
  }
  // The held-back images, made once for every step that runs them (a quick run at 64K a picture, the
  // quick suites' size), unless no such step can run here or every one finished in an earlier run
  // (its records kept without the images: a folder unpacked from its records alone).
  std::optional<held_back> images;
  const auto finished = [&](const step& s) { return !a.fresh && complete(dir / s.api / (s.name + ".status.json")); };
  // A shard runs no step that reads an earlier step's whole records (deferred()): the reproduction
  // of the merged folder runs those, and makes the images they use.
  const auto deferred = [&](const step& s) {
    return shard && s.kind == "bench" &&
           (s.held_back_images || std::any_of(s.args.begin(), s.args.end(), [](const std::string& x) {
              return x.find("{api_dir}") != std::string::npos;
            }));
  };
  for (const auto& s : steps)
    if (s.held_back_images && !missing.contains(s.api) && !finished(s) && !images && !deferred(s) && !a.list) {
      const int side = a.quick ? 256 : 2048;
      std::cerr << "reproduce: the held-back images (" << side << " × " << side << ") …\n";
      images = held_back_cases(dir / ("held-back-" + std::to_string(side)), side, python(),
                               script.parent_path() / "held_back_images.py");
      if (interrupted()) return 128 + interrupt_signal();
    }

  json manifest{{"papers", names}, {"quick", a.quick}, {"winnow", ""}, {"command", ""}, {"steps", json::array()}};
  {
    record stamp_only;
    stamp(stamp_only);
    manifest["winnow"] = stamp_only.winnow_version;
    manifest["command"] = stamp_only.command;
  }
  for (auto& s : steps) {
    const fs::path api_dir = dir / s.api;
    std::vector<std::string> argv = {self};
    if (a.debug) argv.push_back("--debug");
    json files = json::array();
    if (s.kind == "calibrate") {
      argv.insert(argv.end(), {"calibrate", "--api", s.api, "--out", (api_dir / "calibrate.jsonl").string()});
      files.push_back(s.api + "/calibrate.jsonl");
    } else {
      argv.insert(argv.end(), {"bench", "--suite", s.suite, "--api", s.api, "--out", api_dir.string()});
      if (s.name != s.suite) argv.insert(argv.end(), {"--name", s.name});
      for (std::string arg : s.args) {
        if (const auto at = arg.find("{api_dir}"); at != std::string::npos) arg.replace(at, 9, api_dir.string());
        argv.push_back(arg);
      }
      if (s.held_back_images && images)
        for (const auto& c : images->cases) argv.insert(argv.end(), {"--case", c});
      if (a.quick) argv.push_back("--quick");
      if (a.check == check_place::host) argv.insert(argv.end(), {"--check", "host"});
      if (shard) argv.insert(argv.end(), {"--shard", a.shard});
      if (!a.fresh) argv.push_back("--resume");
      files.push_back(s.api + "/" + s.name + ".jsonl");
      files.push_back(s.api + "/" + s.name + ".csv");
    }
    std::string command = typed_program(); // as the user would type it, not this machine's path
    for (std::size_t i = 1; i < argv.size(); ++i) command += " " + argv[i];
    s.argv = argv;
    manifest["steps"].push_back({{"kind", s.kind},
                                 {"api", s.api},
                                 {"suite", s.suite.empty() ? json(nullptr) : json(s.suite)},
                                 {"name", s.name.empty() ? json(nullptr) : json(s.name)},
                                 {"papers", s.papers},
                                 {"files", files},
                                 {"command", command},
                                 {"status", "pending"},
                                 {"exit", nullptr},
                                 {"reason", nullptr},
                                 {"seconds", 0}});
  }
  // A resumed run goes on from an earlier one's records: each step's seconds add up over the runs,
  // matched by kind, api and results name (a command changes with the spelling of DIR; manifests
  // from before steps had names name them by their suite).
  const auto step_key = [](const auto& e) {
    const auto text = [&](const char* k) {
      return e.contains(k) && e[k].is_string() ? e[k].template get<std::string>() : "";
    };
    return text("kind") + "/" + text("api") + "/" + (text("name").empty() ? text("suite") : text("name"));
  };
  std::map<std::string, double> earlier_seconds;
  if (const fs::path old = dir / "reproduce.json"; !a.fresh && fs::is_regular_file(old)) {
    const auto j = nlohmann::json::parse(std::ifstream(old), nullptr, false);
    if (j.is_object() && j.contains("steps") && j["steps"].is_array())
      for (const auto& e : j["steps"])
        if (e.is_object() && e.value("seconds", json()).is_number())
          earlier_seconds[step_key(e)] += e["seconds"].get<double>();
  }
  for (auto& e : manifest["steps"]) e["seconds"] = earlier_seconds[step_key(e)];
  if (a.list) return list_steps(steps, missing, deferred, shard);
  if (shard) manifest["shard"] = {{"index", shard->index}, {"count", shard->count}};
  // Where each step's time went, from the records it left (and, for a calibration, all "other").
  const auto account = [&](const step& s, json& e) {
    const double seconds = e["seconds"].get<double>();
    e["time"] = s.kind == "bench" ? step_time(dir / s.api / (s.name + ".jsonl"), seconds)
                                  : json{{"timed", 0.0},  {"warmup", 0.0}, {"make", 0.0},
                                         {"upload", 0.0}, {"check", 0.0},  {"other", seconds}};
  };
  write_manifest(dir, manifest);

  bool failed = false;
  const auto started = std::chrono::steady_clock::now();
  // "[2/9 3:10]": the step and the time so far; each bench step's own lines estimate its remaining time.
  const auto where = [&](std::size_t i) {
    return "[" + std::to_string(i + 1) + "/" + std::to_string(steps.size()) + " " +
           format_clock(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count()) + "] ";
  };
  for (std::size_t i = 0; i < steps.size(); ++i) {
    step& s = steps[i];
    json& e = manifest["steps"][i];
    const std::string what = s.kind + " " + (s.suite.empty() ? "" : s.name + " ") + "on " + s.api;
    if (auto it = missing.find(s.api); it != missing.end()) {
      e["status"] = "not run";
      e["reason"] = s.api + ": " + it->second;
      std::cerr << "reproduce: " << where(i) << what << ": not run here: " << it->second << "\n";
      write_manifest(dir, manifest);
      continue;
    }
    if (shard && s.kind == "calibrate" && shard->index != 0) {
      e["status"] = "elsewhere";
      e["reason"] = "shard 0 calibrates";
      write_manifest(dir, manifest);
      continue;
    }
    if (deferred(s)) {
      e["status"] = "deferred";
      e["reason"] = "reads an earlier step's whole records: `winnow reproduce` on the merged folder runs it";
      write_manifest(dir, manifest);
      continue;
    }
    if (s.held_back_images && finished(s) && (!images || !images->why_not.empty())) {
      e["status"] = "done";
      e["reason"] = "kept from an earlier run into this folder (every record there)";
      write_manifest(dir, manifest);
      continue;
    }
    if (s.held_back_images && images && !images->why_not.empty()) {
      e["status"] = "not run";
      e["reason"] = images->why_not;
      std::cerr << "reproduce: " << where(i) << what << ": not run: " << images->why_not << "\n";
      write_manifest(dir, manifest);
      continue;
    }
    const fs::path calibration = dir / s.api / "calibrate.jsonl";
    if (s.kind == "calibrate" && !a.fresh && fs::exists(calibration)) {
      e["status"] = "done";
      e["reason"] = "kept from an earlier run into this folder";
      write_manifest(dir, manifest);
      continue;
    }
    std::cerr << "reproduce: " << where(i) << what << " …\n";
    fs::create_directories(dir / s.api);
    const auto t0 = std::chrono::steady_clock::now();
    const child_result r = run_child(s.argv);
    e["seconds"] =
        e["seconds"].get<double>() + std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    e["exit"] = r.exit;
    const auto why_not =
        s.kind == "bench" ? not_run_reason(dir / s.api / (s.name + ".status.json"), s.api) : std::nullopt;
    if (interrupted() || r.exit > 128) {
      e["status"] = "interrupted";
      e["reason"] = "stopped by a signal; run the same command again to go on";
    } else if (why_not) {
      e["status"] = "not run";
      e["reason"] = s.api + ": " + *why_not;
    } else if (r.exit != 0) {
      e["status"] = "failed";
      e["reason"] = "exit " + std::to_string(r.exit) + (r.exit == 1 ? ": a run failed (its records say which)" : "");
      failed = true;
    } else {
      e["status"] = "done";
    }
    account(s, e);
    write_manifest(dir, manifest);
    if (e["status"] == "interrupted") {
      std::cerr << "reproduce: interrupted; " << dir.string() << "/reproduce.json says what finished. "
                << "The same command goes on from there.\n";
      return interrupted() ? 128 + interrupt_signal() : r.exit; // 128 + the signal, as bench exits
    }
    if (r.exit == 2) {
      // A usage error (a record file --resume refuses, say): the child named it; going on would
      // write a report over a step that could not run.
      std::cerr << "reproduce: " << what << " was refused (exit 2, its message above); nothing more runs\n";
      return 2;
    }
  }

  for (std::size_t i = 0; i < steps.size(); ++i)
    if (!manifest["steps"][i].contains("time")) account(steps[i], manifest["steps"][i]);
  manifest["date"] = utc_day(); // the day the steps finished: the results page dates a run by it
  write_manifest(dir, manifest);
  if (shard) {
    std::cerr << "reproduce: shard " << shard->index << "/" << shard->count << " done into " << dir.string()
              << "; `winnow merge --out MERGED` with every shard's folder, then `winnow reproduce " << a.paper
              << " --out MERGED` runs the deferred steps and writes the report\n";
    return failed ? 1 : 0;
  }
  std::cerr << "reproduce: report … ("
            << format_clock(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count())
            << " so far)\n";
  std::vector<std::string> argv = {python(), script.string(), dir.string()};
  for (const paper* p : list) argv.insert(argv.end(), {"--paper", p->name});
  const child_result r = run_child(argv);
  if (interrupted()) return 128 + interrupt_signal();
  if (r.exit != 0 || !fs::exists(dir / "report.md")) {
    std::cerr << "reproduce: the report script failed (exit " << r.exit << "): " << argv[0] << " " << script.string()
              << "\n";
    return 1;
  }
  std::cout << "wrote " << (dir / "report.md").string() << " (" << (dir / "reproduce.json").string()
            << " lists every step)\n";
  return failed ? 1 : 0;
}

} // namespace winnow::cli
