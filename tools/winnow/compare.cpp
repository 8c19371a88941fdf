// `winnow compare A B`: per-record ratios between two benches (folders or .jsonl files), in the
// manner of nvbench_compare and Google Benchmark's compare.py. A difference counts only when it is
// larger than the noise either side measured (and than --threshold): otherwise "same".
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>

#include "commands.hpp"
#include "record_check.hpp"
#include "table.hpp"
#include "winnow/backends.hpp"
#include "winnow/error.hpp"
#include "winnow/record.hpp"

namespace winnow::cli {
namespace {

namespace fs = std::filesystem;

/// What a record is compared by: not the device (comparing two GPUs is the point) or the version.
std::string compare_key(const record& r) { return r.algorithm + "  " + to_string(r.parameters) + "  " + r.spec; }

/// The same with what the run chose where a parameter was "auto" (record::chosen): how a record of a
/// default that became "auto" (cuda/lookback's tile and pause) meets one that gave the value.
params ran_params(const record& r) {
  params ran = r.parameters;
  for (const auto& [k, v] : r.chosen) ran[k] = v;
  return ran;
}
std::string ran_key(const record& r) { return r.algorithm + "  " + to_string(ran_params(r)) + "  " + r.spec; }

/// A measured record, where it was read (FILE:LINE, for messages) and what it is matched by: its
/// compare key, after its results name when two folders are compared ("moreira: …"), so that folders
/// of several benches (a reproduction's moreira and adaptive, which share records) match file by file.
struct read_record {
  record r;
  std::string where;
  std::string key;
  std::string ran; ///< ran_key, after the same results name
};

/// Records of a .jsonl file, or of every final NAME.jsonl of a folder (not journals), measured ones
/// only, each checked (record_check.hpp). A folder's other kinds of winnow file (seed summaries,
/// calibration) are skipped, and the skipping said; given by name, they are refused. Two records of
/// one compare key on one side are refused: records are matched one to one.
std::vector<read_record> load(const std::string& where, bool by_file) {
  std::vector<fs::path> files;
  const bool folder = fs::is_directory(where);
  if (folder) {
    for (const auto& e : fs::directory_iterator(where))
      if (e.is_regular_file() && e.path().extension() == ".jsonl" && !e.path().string().ends_with(".journal.jsonl"))
        files.push_back(e.path());
    std::sort(files.begin(), files.end());
  } else if (fs::is_regular_file(where) && where.ends_with(".jsonl")) {
    files.push_back(where);
  } else {
    throw usage_error("compare: " + where + " is " +
                      (fs::exists(where) ? "neither a folder nor a .jsonl file" : "missing"));
  }
  const registry& reg = all_backends();
  std::vector<read_record> out;
  std::map<std::string, std::string> seen; // compare key → where
  for (const auto& f : files) {
    std::ifstream in(f);
    std::string line;
    bool first = true;
    for (int number = 1; std::getline(in, line); ++number) {
      if (line.empty()) continue;
      const std::string at = f.string() + ":" + std::to_string(number);
      if (first) {
        first = false;
        const std::string kind = jsonl_kind(line);
        if (kind == "seed summaries" || kind == "calibration") {
          if (!folder)
            throw usage_error("compare: " + f.string() + " holds " + kind + ", not records (compare reads records)");
          std::cerr << "compare: skipped " << f.string() << " (" << kind << ", not records)\n";
          break;
        }
      }
      try {
        record r = from_json_line(line);
        check_record(r, reg);
        if (r.skipped || !r.verified) continue;
        const std::string name = by_file ? f.stem().string() + ": " : "";
        const std::string key = name + compare_key(r);
        const auto [it, fresh] = seen.emplace(key, at);
        if (!fresh)
          throw usage_error("compare: " + at + " is a second record of " + compare_key(r) +
                            " (the first: " + it->second + "); records are matched one to one");
        std::string ran = name + ran_key(r);
        out.push_back({std::move(r), at, key, std::move(ran)});
      } catch (const usage_error&) { throw; } catch (const error& e) {
        throw usage_error("compare: " + at + ": " + e.what());
      }
    }
  }
  if (out.empty()) throw usage_error("compare: " + where + " holds no measured records");
  return out;
}

} // namespace

int compare_command(const std::string& before, const std::string& after, double threshold) {
  // Two folders are matched file by file; a folder against a file, record by record.
  const bool by_file = fs::is_directory(before) && fs::is_directory(after);
  const auto a = load(before, by_file), b = load(after, by_file);
  // Records are matched by their parameters as given; those left, by what they ran (ran_key), one to one.
  std::map<std::string, const read_record*> by_key;
  for (const auto& x : a) by_key.emplace(x.key, &x);
  std::vector<std::pair<const read_record*, const read_record*>> pairs; // (before, after)
  std::vector<const read_record*> left;
  std::map<std::string, bool> matched;
  for (const auto& x : b) {
    const auto it = by_key.find(x.key);
    if (it == by_key.end()) {
      left.push_back(&x);
      continue;
    }
    pairs.emplace_back(it->second, &x);
    matched[x.key] = true;
  }
  std::multimap<std::string, const read_record*> by_ran;
  for (const auto& x : a)
    if (!matched.contains(x.key)) by_ran.emplace(x.ran, &x);
  std::vector<std::string> only_after;
  for (const read_record* x : left) {
    const auto it = by_ran.find(x->ran);
    if (it == by_ran.end()) {
      only_after.push_back(x->key);
      continue;
    }
    pairs.emplace_back(it->second, x);
    matched[it->second->key] = true;
    by_ran.erase(it);
  }
  table t({"algorithm", "params", "case", "before", "after", "after/before", "noise", "verdict"});
  std::size_t faster = 0, slower = 0, same = 0;
  double log_sum = 0;
  for (const auto& [before_record, after_record] : pairs) {
    const record& old = before_record->r;
    const record& r = after_record->r;
    const double ratio = r.total.median / old.total.median;
    // Either side's noise bounds what a difference can mean; records without a spread (older ones) have 0.
    const double noise = std::max(old.total.noise(), r.total.noise());
    const double bound = std::max(noise, threshold);
    const char* verdict = std::abs(ratio - 1) <= bound ? "same" : ratio < 1 ? "faster" : "slower";
    faster += ratio < 1 - bound;
    slower += ratio > 1 + bound;
    same += std::abs(ratio - 1) <= bound;
    log_sum += std::log(ratio);
    char text[32];
    std::snprintf(text, sizeof text, ratio < 1e6 ? "%.3f" : "%.3g", ratio); // a huge ratio stays short
    const bool as_given = before_record->key == after_record->key;
    t.add({r.algorithm, to_string(r.parameters) + (as_given ? "" : " (ran " + to_string(r.chosen) + ")"), r.spec,
           format_ns(old.total.median), format_ns(r.total.median), text, format_percent(noise), verdict});
  }
  const std::size_t compared = faster + slower + same;
  if (compared) std::cout << t.str() << "\n";
  std::cout << compared << " records compared: " << faster << " faster, " << slower << " slower, " << same
            << " the same within noise" << (threshold > 0 ? " or --threshold " + format_percent(threshold) : "")
            << "\n";
  if (compared)
    std::cout << "geometric mean of after/before: " << std::exp(log_sum / static_cast<double>(compared)) << "\n";
  for (const auto& x : a)
    if (!matched.contains(x.key)) std::cout << "only before: " << x.key << "\n";
  for (const auto& k : only_after) std::cout << "only after: " << k << "\n";
  if (!compared) std::cerr << "compare: no record of " << after << " matches one of " << before << "\n";
  return compared ? 0 : 1;
}

} // namespace winnow::cli
