#include "winnow/record.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/stat.h>
#include <algorithm>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "winnow/error.hpp"

#ifndef WINNOW_VERSION
#define WINNOW_VERSION "unknown"
#endif

namespace winnow {
namespace {

std::string& command_line() {
  static std::string cmd;
  return cmd;
}

std::string& program_name() {
  static std::string name;
  return name;
}

std::string host_description() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line, model = "unknown CPU";
  while (std::getline(cpuinfo, line))
    if (line.starts_with("model name")) {
      model = line.substr(line.find(':') + 2);
      break;
    }
  return model + ", " + std::to_string(std::thread::hardware_concurrency()) + " threads";
}

nlohmann::json to_json(const stats& s) {
  return {{"median_ns", s.median}, {"min_ns", s.min}, {"max_ns", s.max}, {"mean_ns", s.mean},
          {"stddev_ns", s.stddev}, {"q1_ns", s.q1},   {"q3_ns", s.q3},   {"noise", s.noise()}};
}

/// Records written before the spread was recorded have median/min/max only: the rest reads as 0.
stats stats_from(const nlohmann::ordered_json& j) {
  const auto optional = [&](const char* key) { return j.contains(key) ? j.at(key).get<double>() : 0.0; };
  return {j.at("median_ns").get<double>(),
          j.at("min_ns").get<double>(),
          j.at("max_ns").get<double>(),
          optional("mean_ns"),
          optional("stddev_ns"),
          optional("q1_ns"),
          optional("q3_ns")};
}

} // namespace

std::string csv_params(const params& p) {
  std::string s;
  for (const auto& [k, v] : p) s += (s.empty() ? "" : ";") + k + "=" + v;
  return s;
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string num(double v) {
  std::ostringstream os;
  os.precision(12);
  os << v;
  return os.str();
}

void set_command_line(int argc, char** argv) {
  // A child that `winnow reproduce` started runs as /proc/self/exe, a path of this machine: it records
  // the name its parent was typed as instead (WINNOW_ARGV0), so records hold the command as typed.
  const char* typed = std::getenv("WINNOW_ARGV0");
  std::string cmd;
  for (int i = 0; i < argc; ++i) {
    std::string arg = i == 0 && typed && *typed ? typed : argv[i];
    if (i == 0) program_name() = arg;
    const bool quote = arg.empty() || arg.find_first_of(" \t'\"$") != std::string::npos;
    cmd += (i ? " " : "") + (quote ? "'" + arg + "'" : arg);
  }
  command_line() = cmd;
}

std::string typed_program() { return program_name(); }

const char* version() { return WINNOW_VERSION; }

void stamp(record& r) {
  static const std::string host = host_description();
  r.winnow_version = WINNOW_VERSION;
  r.command = command_line();
  r.host = host;
}

std::string to_json_line(const record& r) {
  nlohmann::json phases = nlohmann::json::array();
  for (const auto& p : r.phases) {
    auto j = to_json(p.ns);
    j["name"] = p.name;
    phases.push_back(j);
  }
  nlohmann::ordered_json j;
  j["schema"] = record_schema_version;
  j["winnow"] = r.winnow_version;
  j["command"] = r.command;
  j["host"] = r.host;
  j["device"] = r.device;
  j["driver"] = r.driver;
  j["api"] = r.api;
  j["algorithm"] = r.algorithm;
  j["params"] = r.parameters;
  if (!r.chosen.empty()) j["chosen"] = r.chosen;
  if (!r.notes.empty()) j["notes"] = r.notes;
  j["case"] = r.spec;
  j["n"] = r.n;
  j["removals"] = r.removals;
  j["valid"] = r.valid;
  j["kept"] = r.kept;
  j["stable"] = r.stable;
  j["in_place"] = r.in_place;
  j["warmup"] = r.warmup;
  j["warmup_ms"] = r.warmup_ns / 1e6;
  j["warmup_runs"] = r.warmup_runs;
  j["warmup_ran_ms"] = r.warmup_ran_ns / 1e6;
  if (r.busy_ns > 0) {
    j["busy_ms"] = r.busy_ns / 1e6;
    j["busy_timed"] = r.busy_timed;
  }
  if (!r.warmup_rule.empty()) {
    j["warmup_rule"] = r.warmup_rule;
    j["discarded"] = r.discarded;
    if (r.sm_mhz_peak > 0) {
      j["sm_mhz_min"] = r.sm_mhz_min;
      j["sm_mhz_max"] = r.sm_mhz_max;
      j["sm_mhz_peak"] = r.sm_mhz_peak;
    }
    j["clock_gave_up"] = r.clock_gave_up;
  }
  j["reps"] = r.reps;
  j["max_noise"] = r.max_noise;
  j["min_time_ms"] = r.min_time_ns / 1e6;
  j["timeout_s"] = r.timeout_s;
  j["cold"] = r.cold;
  j["debug"] = r.debug;
  j["timer"] = r.timer;
  j["phases"] = phases;
  j["total"] = to_json(r.total);
  j["wall"] = to_json(r.wall);
  j["bytes_read"] = r.bytes_read;
  j["bytes_written"] = r.bytes_written;
  j["launches"] = r.launches;
  if (!r.host_ns.empty()) {
    nlohmann::ordered_json host = nlohmann::ordered_json::object();
    for (const auto& [step, ns] : r.host_ns) host[step] = ns / 1e6;
    j["host_ms"] = host;
  }
  j["verified"] = r.verified;
  if (!r.checked_on.empty()) j["checked_on"] = r.checked_on;
  j["mismatch"] = r.mismatch.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(r.mismatch);
  j["skipped"] = r.skipped ? nlohmann::ordered_json(*r.skipped) : nlohmann::ordered_json(nullptr);
  return j.dump();
}

namespace {

/// A count of the record: a whole number, not negative, that fits T. nlohmann's get<T>() converts a
/// float or a negative number as it comes (undefined behaviour past int's range; fuzz_record found it).
template <class T> T count(const nlohmann::ordered_json& j, const char* key) {
  const auto& v = j.at(key);
  const bool fits = v.is_number_unsigned() ? v.get<std::uint64_t>() <= std::numeric_limits<T>::max()
                    : v.is_number_integer()
                        ? v.get<std::int64_t>() >= 0 && static_cast<std::uint64_t>(v.get<std::int64_t>()) <=
                                                            static_cast<std::uint64_t>(std::numeric_limits<T>::max())
                        : false;
  if (!fits)
    throw error("records: " + std::string(key) + " is " + v.dump() + ", not a whole number from 0 to " +
                std::to_string(std::numeric_limits<T>::max()));
  return v.get<T>();
}

} // namespace

record from_json_line(const std::string& line) {
  try {
    const auto j = nlohmann::ordered_json::parse(line); // ordered: host_ms keeps its steps in order
    if (count<int>(j, "schema") != record_schema_version)
      throw error("records: schema " + j.at("schema").dump() + ", this winnow reads " +
                  std::to_string(record_schema_version));
    record r;
    r.winnow_version = j.at("winnow").get<std::string>();
    r.command = j.at("command").get<std::string>();
    r.host = j.at("host").get<std::string>();
    r.device = j.at("device").get<std::string>();
    r.driver = j.at("driver").get<std::string>();
    r.api = j.at("api").get<std::string>();
    r.algorithm = j.at("algorithm").get<std::string>();
    r.parameters = j.at("params").get<params>();
    if (j.contains("chosen")) r.chosen = j.at("chosen").get<params>();
    if (j.contains("notes")) r.notes = j.at("notes").get<params>();
    r.spec = j.at("case").get<std::string>();
    r.n = count<std::uint64_t>(j, "n");
    r.removals = count<std::uint64_t>(j, "removals");
    r.valid = count<std::uint64_t>(j, "valid");
    r.kept = count<std::uint64_t>(j, "kept");
    r.stable = j.at("stable").get<bool>();
    r.in_place = j.at("in_place").get<bool>();
    r.warmup = count<int>(j, "warmup");
    r.warmup_ns = j.at("warmup_ms").get<double>() * 1e6;
    if (j.contains("warmup_runs")) r.warmup_runs = count<int>(j, "warmup_runs");
    if (j.contains("warmup_ran_ms")) r.warmup_ran_ns = j.at("warmup_ran_ms").get<double>() * 1e6;
    if (j.contains("busy_ms")) r.busy_ns = j.at("busy_ms").get<double>() * 1e6;
    if (j.contains("busy_timed")) r.busy_timed = j.at("busy_timed").get<bool>();
    if (j.contains("warmup_rule")) r.warmup_rule = j.at("warmup_rule").get<std::string>();
    if (j.contains("discarded")) r.discarded = count<std::uint64_t>(j, "discarded");
    if (j.contains("sm_mhz_min")) r.sm_mhz_min = j.at("sm_mhz_min").get<double>();
    if (j.contains("sm_mhz_max")) r.sm_mhz_max = j.at("sm_mhz_max").get<double>();
    if (j.contains("sm_mhz_peak")) r.sm_mhz_peak = j.at("sm_mhz_peak").get<double>();
    if (j.contains("clock_gave_up")) r.clock_gave_up = j.at("clock_gave_up").get<bool>();
    r.reps = count<int>(j, "reps");
    if (j.contains("max_noise")) r.max_noise = j.at("max_noise").get<double>();
    if (j.contains("min_time_ms")) r.min_time_ns = j.at("min_time_ms").get<double>() * 1e6;
    if (j.contains("timeout_s")) r.timeout_s = j.at("timeout_s").get<double>();
    r.cold = j.at("cold").get<bool>();
    r.debug = j.at("debug").get<bool>();
    if (j.contains("timer")) r.timer = j.at("timer").get<std::string>();
    for (const auto& p : j.at("phases")) r.phases.push_back({p.at("name").get<std::string>(), stats_from(p)});
    r.total = stats_from(j.at("total"));
    r.wall = stats_from(j.at("wall"));
    r.bytes_read = count<std::uint64_t>(j, "bytes_read");
    r.bytes_written = count<std::uint64_t>(j, "bytes_written");
    r.launches = count<std::uint64_t>(j, "launches");
    // Diagnostics only: a step that is not a number is left out rather than the record refused.
    if (j.contains("host_ms") && j.at("host_ms").is_object())
      for (const auto& [step, ms] : j.at("host_ms").items())
        if (ms.is_number()) r.host_ns.emplace_back(step, ms.get<double>() * 1e6);
    r.verified = j.at("verified").get<bool>();
    if (j.contains("checked_on")) r.checked_on = j.at("checked_on").get<std::string>();
    if (!j.at("mismatch").is_null()) r.mismatch = j.at("mismatch").get<std::string>();
    if (!j.at("skipped").is_null()) r.skipped = j.at("skipped").get<std::string>();
    return r;
  } catch (const nlohmann::json::exception& e) {
    throw error(std::string("records: not a winnow record: ") + e.what());
  }
}

std::string to_csv(const std::vector<record>& rows) {
  std::vector<std::string> phase_names;
  for (const auto& r : rows)
    for (const auto& p : r.phases)
      if (std::find(phase_names.begin(), phase_names.end(), p.name) == phase_names.end()) phase_names.push_back(p.name);
  std::string out = "schema,winnow,api,algorithm,params,case,n,removals,valid,kept,stable,in_place,warmup,warmup_ms,"
                    "warmup_runs,warmup_ran_ms,warmup_rule,discarded,sm_mhz_min,sm_mhz_max,reps,cold,debug,"
                    "total_median_ns,total_min_ns,total_max_ns,total_stddev_ns,total_q1_ns,total_q3_ns,noise,max_noise,"
                    "wall_median_ns,wall_min_ns,wall_max_ns,bytes_read,bytes_written,launches,"
                    "verified,mismatch,skipped,device,driver,timer,host,command";
  for (const auto& name : phase_names) out += "," + name + "_median_ns," + name + "_min_ns," + name + "_max_ns";
  out += "\n";
  for (const auto& r : rows) {
    const std::vector<std::string> fields = {std::to_string(record_schema_version),
                                             r.winnow_version,
                                             r.api,
                                             r.algorithm,
                                             csv_params(r.parameters),
                                             r.spec,
                                             std::to_string(r.n),
                                             std::to_string(r.removals),
                                             std::to_string(r.valid),
                                             std::to_string(r.kept),
                                             r.stable ? "true" : "false",
                                             r.in_place ? "true" : "false",
                                             std::to_string(r.warmup),
                                             num(r.warmup_ns / 1e6),
                                             std::to_string(r.warmup_runs),
                                             num(r.warmup_ran_ns / 1e6),
                                             r.warmup_rule,
                                             std::to_string(r.discarded),
                                             num(r.sm_mhz_min),
                                             num(r.sm_mhz_max),
                                             std::to_string(r.reps),
                                             r.cold ? "true" : "false",
                                             r.debug ? "true" : "false",
                                             num(r.total.median),
                                             num(r.total.min),
                                             num(r.total.max),
                                             num(r.total.stddev),
                                             num(r.total.q1),
                                             num(r.total.q3),
                                             num(r.total.noise()),
                                             num(r.max_noise),
                                             num(r.wall.median),
                                             num(r.wall.min),
                                             num(r.wall.max),
                                             std::to_string(r.bytes_read),
                                             std::to_string(r.bytes_written),
                                             std::to_string(r.launches),
                                             r.verified ? "true" : "false",
                                             r.mismatch,
                                             r.skipped.value_or(""),
                                             r.device,
                                             r.driver,
                                             r.timer,
                                             r.host,
                                             r.command};
    std::string line;
    for (const auto& f : fields) line += (line.empty() ? "" : ",") + csv_field(f);
    for (const auto& name : phase_names) {
      auto it = std::find_if(r.phases.begin(), r.phases.end(), [&](const phase_stats& p) { return p.name == name; });
      if (it == r.phases.end()) line += ",,,";
      else line += "," + num(it->ns.median) + "," + num(it->ns.min) + "," + num(it->ns.max);
    }
    out += line + "\n";
  }
  return out;
}

void write_atomically(const std::filesystem::path& path, const std::string& text) {
  const auto dir = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  std::string tmp = (dir / ("." + path.filename().string() + ".XXXXXX")).string();
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0) throw error("cannot create a temporary file next to " + path.string() + ": " + std::strerror(errno));
  bool ok = true;
  for (std::size_t done = 0; ok && done < text.size();) {
    const auto n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0) ok = false;
    else done += static_cast<std::size_t>(n);
  }
  ok = ok && ::fsync(fd) == 0;
  const int saved = errno;
  ::close(fd);
  // mkstemp makes the file 0600; results are for everyone to read.
  ::chmod(tmp.c_str(), 0644);
  if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = ok ? errno : saved;
    std::remove(tmp.c_str());
    throw error("cannot write " + path.string() + ": " + std::strerror(err));
  }
}

void write_jsonl(const std::filesystem::path& path, const std::vector<record>& rows) {
  std::string text;
  for (const auto& r : rows) text += to_json_line(r) + "\n";
  write_atomically(path, text);
}

void write_csv(const std::filesystem::path& path, const std::vector<record>& rows) {
  write_atomically(path, to_csv(rows));
}

} // namespace winnow
