// `winnow merge --out DIR SHARD_DIR…`: joins the folders of a sharded bench or reproduce
// (`--shard I/N`) into the folder one unsharded run would have written: each results file's records
// in the plan's order, its status file whole, the shards' reproduce.json as one, and the files only
// one shard writes (calibrations) copied. Shards of different plans, builds, papers or devices, and
// two shards of one index, are refused before anything is written.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "commands.hpp"
#include "results_folder.hpp"
#include "shard.hpp"
#include "winnow/error.hpp"
#include "winnow/record.hpp"
#include "winnow/seed_summary.hpp"

namespace winnow::cli {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

json read_json(const fs::path& p) {
  std::ifstream in(p);
  json j = json::parse(in, nullptr, false);
  if (j.is_discarded() || !j.is_object()) throw usage_error("merge: " + p.string() + " is not a JSON object");
  return j;
}

/// One shard's part of one results file (its status file names the shard and the plan).
struct part {
  fs::path shard_dir; ///< the SHARD_DIR given
  fs::path base;      ///< SHARD_DIR/REL (without .status.json)
  json status;
  std::size_t index = 0, count = 0;
};

/// The records of a part: its results file, then its journal where a run was cut short (a crash
/// may leave the journal's last line half written). A record there twice counts once, the last.
std::vector<record> part_records(const part& p) {
  std::vector<record> out;
  std::map<std::string, std::size_t> at;
  for (const auto* suffix : {".jsonl", ".journal.jsonl"}) {
    const fs::path path = p.base.string() + suffix;
    if (!fs::exists(path)) continue;
    for_each_record(path, "merge", [&](record&& r, int) {
      const std::string key = resume_key(r);
      if (auto it = at.find(key); it != at.end()) out[it->second] = std::move(r);
      else {
        at[key] = out.size();
        out.push_back(std::move(r));
      }
    });
  }
  return out;
}

/// The suffixes of the files a results file consists of.
constexpr const char* results_suffixes[] = {".jsonl",         ".csv",         ".status.json",
                                            ".journal.jsonl", ".seeds.jsonl", ".seeds.csv"};

/// One results file of the merged folder, checked and joined, not yet written.
struct merged_file {
  fs::path base;
  std::vector<record> rows;
  json status;
  bool seeds = false;
  bool whole = false;
  std::string summary;
};

/// Joins the parts of one results file (for out/rel); usage_error where they do not fit together.
merged_file merge_results(const std::string& rel, std::vector<part>& parts, const fs::path& out,
                          const std::string& command) {
  std::sort(parts.begin(), parts.end(), [](const part& a, const part& b) { return a.index < b.index; });
  const part& first = parts.front();
  const json& shard0 = first.status.at("shard");
  const std::string where = " (" + rel + ")";
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const part& p = parts[i];
    const json& sh = p.status.at("shard");
    if (p.count != first.count)
      throw usage_error("merge: " + first.base.string() + " is a shard of " + std::to_string(first.count) + ", " +
                        p.base.string() + " one of " + std::to_string(p.count) + ": not shards of one run");
    if (i > 0 && p.index == parts[i - 1].index)
      throw usage_error("merge: " + parts[i - 1].shard_dir.string() + " and " + p.shard_dir.string() +
                        " both hold shard " + std::to_string(p.index) + "/" + std::to_string(p.count) + where +
                        ": overlapping shards");
    if (sh.value("winnow", "") != shard0.value("winnow", ""))
      throw usage_error("merge: " + first.shard_dir.string() + " and " + p.shard_dir.string() +
                        " come from different builds (winnow " + shard0.value("winnow", "") + " and " +
                        sh.value("winnow", "") + ")" + where);
    if (sh.value("plan", json()) != shard0.value("plan", json()))
      throw usage_error("merge: " + first.shard_dir.string() + " and " + p.shard_dir.string() +
                        " ran different plans (suite, filters, --quick or cases differ)" + where);
    if (p.status.value("not_run", json::object()) != first.status.value("not_run", json::object()))
      throw usage_error("merge: " + first.shard_dir.string() + " and " + p.shard_dir.string() +
                        " ran on machines that differ in what can run there (\"not_run\")" + where);
  }
  const json& plan = shard0.at("plan");
  std::map<std::string, std::size_t> position;
  for (std::size_t k = 0; k < plan.size(); ++k) position[plan[k].dump()] = k;

  std::vector<std::optional<record>> merged(plan.size());
  std::vector<const part*> from(plan.size(), nullptr);
  std::string device;
  const part* device_from = nullptr;
  bool whole = parts.size() == first.count;
  bool seeds = false;
  for (const part& p : parts) {
    whole = whole && p.status.value("complete", false);
    seeds = seeds || fs::exists(p.base.string() + ".seeds.jsonl");
    for (record& r : part_records(p)) {
      const auto it = position.find(plan_entry_json(r.algorithm, r.parameters, r.spec));
      if (it == position.end())
        throw usage_error("merge: " + p.base.string() + ".jsonl holds a record not in the plan: " + r.algorithm + " " +
                          csv_params(r.parameters) + " " + r.spec);
      if (from[it->second] && from[it->second] != &p)
        throw usage_error("merge: " + from[it->second]->shard_dir.string() + " and " + p.shard_dir.string() +
                          " both hold the record " + r.algorithm + " " + csv_params(r.parameters) + " " + r.spec +
                          where + ": overlapping shards");
      if (!r.device.empty()) {
        if (device_from && r.device != device)
          throw usage_error("merge: the records of " + device_from->shard_dir.string() + " ran on " + device +
                            ", those of " + p.shard_dir.string() + " on " + r.device + where +
                            ": one run is on one kind of device");
        device = r.device;
        device_from = &p;
      }
      from[it->second] = &p;
      merged[it->second] = std::move(r);
    }
  }
  merged_file m;
  m.base = out / rel;
  for (auto& r : merged)
    if (r) m.rows.push_back(std::move(*r));
  m.seeds = seeds;
  m.whole = whole;
  m.status["complete"] = whole;
  m.status["records"] = m.rows.size();
  m.status["planned"] = plan.size();
  m.status["not_run"] = first.status.value("not_run", json::object());
  m.status["command"] = command;
  m.status["merged"] = {{"shards", first.count}, {"present", parts.size()}};
  m.summary = "merge: " + rel + ": " + std::to_string(m.rows.size()) + " of " + std::to_string(plan.size()) +
              " records from " + std::to_string(parts.size()) + " of " + std::to_string(first.count) + " shards" +
              (whole ? "" : " (incomplete: `bench --resume` or `reproduce` on the merged folder runs the rest)");
  return m;
}

void write_merged(const merged_file& m) {
  const std::string base = m.base.string();
  fs::create_directories(m.base.parent_path());
  for (const char* suffix : results_suffixes) fs::remove(base + suffix);
  if (m.seeds) {
    const auto summaries = summarize_seeds(m.rows);
    std::string lines;
    for (const auto& x : summaries) lines += to_json_line(x) + "\n";
    write_atomically(base + ".seeds.jsonl", lines);
    write_atomically(base + ".seeds.csv", to_csv(summaries));
  }
  // Status last, as a bench writes it: a reader that finds it complete finds the records complete.
  write_jsonl(base + ".jsonl", m.rows);
  write_csv(base + ".csv", m.rows);
  write_atomically(base + ".status.json", m.status.dump(2) + "\n");
  std::cout << m.summary << "\n";
}

/// A step of a merged reproduce.json: done where every shard that ran it did; otherwise the first
/// status that is not (failed, interrupted, deferred …) with its reason.
void combine_step(json& into, const json& e) {
  const auto add = [&](const char* key) {
    if (e.contains(key) && e[key].is_number()) into[key] = into.value(key, 0.0) + e[key].get<double>();
  };
  add("seconds");
  if (e.contains("time") && e["time"].is_object()) {
    if (!into.contains("time") || !into["time"].is_object()) into["time"] = json::object();
    for (const auto& [k, v] : e["time"].items())
      if (v.is_number()) into["time"][k] = into["time"].value(k, 0.0) + v.get<double>();
  }
  into["shard_seconds"].push_back(e.value("seconds", json(0.0)));
  const std::string mine = e.value("status", ""), theirs = into.value("status", "");
  if (mine == "elsewhere") return;
  if (theirs == "elsewhere" || (theirs == "done" && mine != "done")) {
    into["status"] = mine;
    into["reason"] = e.value("reason", json());
    into["exit"] = e.value("exit", json());
  }
}

json merge_manifests(const std::vector<std::pair<fs::path, json>>& manifests, const std::string& command) {
  std::vector<std::pair<std::size_t, const std::pair<fs::path, json>*>> by_index;
  for (const auto& m : manifests) {
    const json& sh = m.second.value("shard", json());
    if (!sh.is_object())
      throw usage_error("merge: " + (m.first / "reproduce.json").string() + " is not of a `reproduce --shard` run");
    by_index.emplace_back(sh.value("index", std::size_t{0}), &m);
  }
  std::sort(by_index.begin(), by_index.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  const auto& [dir0, first] = *by_index.front().second;
  for (std::size_t i = 0; i < by_index.size(); ++i) {
    const auto& [dir, j] = *by_index[i].second;
    for (const char* key : {"papers", "quick", "winnow"})
      if (j.value(key, json()) != first.value(key, json()))
        throw usage_error("merge: " + dir0.string() + " and " + dir.string() + " are reproductions that differ in \"" +
                          key + "\" (" + first.value(key, json()).dump() + " and " + j.value(key, json()).dump() + ")");
    if (j["shard"].value("count", 0) != first["shard"].value("count", 0))
      throw usage_error("merge: " + dir0.string() + " and " + dir.string() + " are shards of different splits");
    if (i > 0 && by_index[i].first == by_index[i - 1].first)
      throw usage_error("merge: " + by_index[i - 1].second->first.string() + " and " + dir.string() +
                        " both hold shard " + std::to_string(by_index[i].first) + ": overlapping shards");
  }
  json out = first;
  out.erase("shard");
  out["command"] = command;
  out["merged"] = {{"shards", first["shard"].value("count", 0)}, {"present", manifests.size()}};
  const auto key = [](const json& e) {
    return e.value("kind", "") + "/" + e.value("api", "") + "/" + e.value("name", json("")).dump();
  };
  for (auto& e : out["steps"]) {
    e["seconds"] = 0.0;
    e["shard_seconds"] = json::array();
    if (e.contains("time")) e["time"] = json::object();
    e["status"] = "elsewhere";
    for (const auto& [index, m] : by_index)
      for (const auto& other : m->second.at("steps"))
        if (key(other) == key(e)) combine_step(e, other);
  }
  return out;
}

bool is_results_file(const std::string& name, const std::set<std::string>& bases) {
  for (const char* suffix : results_suffixes)
    if (name.ends_with(suffix) && bases.contains(name.substr(0, name.size() - std::string(suffix).size()))) return true;
  return false;
}

} // namespace

int merge_command(const std::string& out_text, const std::vector<std::string>& shard_texts) {
  if (out_text.empty()) throw usage_error("merge: --out must name a folder");
  const fs::path out = out_text;
  std::vector<fs::path> shards;
  for (const auto& s : shard_texts) {
    if (!fs::is_directory(s)) throw usage_error("merge: " + s + " is not a folder");
    if (fs::exists(out) && fs::equivalent(s, out))
      throw usage_error("merge: --out " + out_text + " is one of the shards");
    shards.emplace_back(s);
  }
  record me;
  stamp(me);
  // Nothing writes into a shard while it is merged, and nothing else into --out.
  std::vector<std::unique_ptr<results_folder>> locks;
  for (const auto& s : shards) locks.push_back(std::make_unique<results_folder>(s, "merge"));
  results_folder out_lock(out, "merge");

  std::map<std::string, std::vector<part>> groups; // by the results file's path inside a shard
  std::vector<std::pair<fs::path, json>> manifests;
  std::map<std::string, fs::path> others; // the other files, the first shard's that has one
  for (const auto& s : shards) {
    if (fs::is_regular_file(s / "reproduce.json")) manifests.emplace_back(s, read_json(s / "reproduce.json"));
    std::set<std::string> bases;
    std::vector<fs::path> files;
    for (const auto& entry : fs::recursive_directory_iterator(s)) {
      if (!entry.is_regular_file()) continue;
      const std::string rel = fs::relative(entry.path(), s).generic_string();
      files.push_back(rel);
      if (!rel.ends_with(".status.json")) continue;
      part p{s, entry.path().string().substr(0, entry.path().string().size() - 12), read_json(entry.path())};
      const json& sh = p.status.value("shard", json());
      if (!sh.is_object() || !sh.contains("plan"))
        throw usage_error("merge: " + entry.path().string() + " is not of a sharded run (`bench --shard I/N`)");
      p.index = sh.value("index", std::size_t{0});
      p.count = sh.value("count", std::size_t{0});
      const std::string base = rel.substr(0, rel.size() - 12);
      bases.insert(base);
      groups[base].push_back(std::move(p));
    }
    for (const auto& rel : files) {
      const std::string name = rel.generic_string();
      if (name == ".winnow.lock" || name == "reproduce.json" || name.ends_with("/.winnow.lock") ||
          name.ends_with(".log") || is_results_file(name, bases) || others.contains(name))
        continue;
      others[name] = s / rel;
    }
  }
  if (groups.empty()) throw usage_error("merge: the shards hold no results file (NAME.status.json of `bench --shard`)");
  if (!manifests.empty() && manifests.size() != shards.size())
    throw usage_error("merge: " + std::to_string(manifests.size()) + " of the " + std::to_string(shards.size()) +
                      " folders are reproductions (reproduce.json): not shards of one run");

  // Every check before the first write: a refused merge leaves --out as it was.
  std::optional<json> manifest;
  if (!manifests.empty()) manifest = merge_manifests(manifests, me.command);
  std::vector<merged_file> files;
  for (auto& [rel, parts] : groups) files.push_back(merge_results(rel, parts, out, me.command));
  bool whole = true;
  for (const auto& m : files) {
    write_merged(m);
    whole = whole && m.whole;
  }
  for (const auto& [rel, path] : others) {
    fs::create_directories((out / rel).parent_path());
    fs::copy_file(path, out / rel, fs::copy_options::overwrite_existing);
  }
  if (manifest) write_atomically(out / "reproduce.json", manifest->dump(2) + "\n");
  if (!whole) {
    std::cerr << "merge: some shards are missing or were cut short; the merged folder says so (\"complete\": false)\n";
    return 1;
  }
  std::cout << "merge: wrote " << out.string() << "\n";
  return 0;
}

} // namespace winnow::cli
