#pragma once
// Where `winnow bench` puts one suite's records, made to survive interruption:
//   NAME.journal.jsonl  every record appended (and flushed) as it finishes;
//   NAME.jsonl, NAME.csv, NAME.status.json  written whole (temporary file + rename) at the end, or
//                       on SIGINT/SIGTERM/SIGHUP with the records finished so far and
//                       "complete": false in the status file; the journal is then removed;
//   .winnow.lock        held (flock) for the whole run, so two processes never write one folder.
// A SIGKILL or a crash leaves the journal, which --resume reads like the final file.
#include <atomic>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "winnow/record.hpp"

namespace winnow::cli {

/// Checks an output file's name before any work: not empty, one of `extensions`, its folder exists,
/// not a folder itself. usage_error naming the option.
void check_output_file(const std::string& option, const std::string& path, const std::vector<std::string>& extensions);

/// Each record of a record file winnow wrote (results or journal), in order, with its line number, checked
/// as strictly as suites are (record_check.hpp). A journal's last line may be cut short by a crash and
/// is left out; anything else that is not a record, and a file that is a symbolic link, is a
/// usage_error naming `who`, the file and the line.
void for_each_record(const std::filesystem::path& path, const std::string& who,
                     const std::function<void(record&&, int line)>& take);

/// What identifies a record for --resume: the same algorithm, parameters, case and device.
[[nodiscard]] std::string resume_key(const record& r);

class results_folder {
public:
  /// Creates `dir` if needed and takes its lock; usage_error when another process holds it.
  results_folder(std::filesystem::path dir, std::string name);
  ~results_folder();
  results_folder(const results_folder&) = delete;
  results_folder& operator=(const results_folder&) = delete;

  /// Records of an earlier run into this folder (its final file and its journal), skipped ones left out.
  [[nodiscard]] std::vector<record> previous() const;
  /// Keeps a record: into the journal at once, into the final files at the end.
  void add(record r);
  /// Keeps records of an earlier run (from previous()) ahead of this run's.
  void keep(std::vector<record> earlier);
  /// Backends that did not run here, with the reason, and how many records the sweep plans: for the status file.
  void describe(std::map<std::string, std::string> not_run, std::size_t planned);
  /// One more field of the status file (a JSON text), e.g. the "shard" a sharded bench ran.
  void annotate(const std::string& key, std::string json_text);
  /// Writes the final files (complete) and removes the journal. Returns the records written.
  const std::vector<record>& finish();

  /// From now until finish(), SIGINT/SIGTERM/SIGHUP write what is finished (marked incomplete) and
  /// exit with 128 + the signal. Call before any other thread is started (GPU drivers start some),
  /// so that every thread inherits the blocked mask and the signal thread is the one to take them.
  void guard_signals();

  /// Stops guarding signals and leaves the journal as it is, for a fresh process that goes on with
  /// --resume in this one's place (its lock and journal close at the exec: they are close-on-exec).
  void hand_over();

  [[nodiscard]] std::filesystem::path base() const { return dir_ / name_; }

private:
  void write_final(bool complete); // with mutex_ held
  void stop_signal_thread();

  std::filesystem::path dir_;
  std::string name_;
  bool created_dir_ = false;  ///< this run made the folder
  bool created_lock_ = false; ///< this run made .winnow.lock
  int lock_fd_ = -1;
  int journal_fd_ = -1;
  std::mutex mutex_;
  std::vector<record> records_;
  std::map<std::string, std::string> not_run_;
  std::size_t planned_ = 0;
  std::map<std::string, std::string> extra_; ///< annotate()
  bool started_ = false;                     ///< describe() was called: the sweep began
  bool finished_ = false;
  std::thread signals_;
};

} // namespace winnow::cli
