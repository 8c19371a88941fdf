#include "results_folder.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <sys/file.h>
#include <unistd.h>

#include <csignal>
#include <exception>
#include <cstring>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "record_check.hpp"
#include "winnow/backends.hpp"
#include "winnow/error.hpp"

namespace winnow::cli {
namespace {

namespace fs = std::filesystem;

/// The signals that end a bench early but let it write what it has. SIGUSR1 only wakes the signal
/// thread when the bench is done.
sigset_t handled_signals() {
  sigset_t set;
  sigemptyset(&set);
  for (int s : {SIGINT, SIGTERM, SIGHUP, SIGUSR1}) sigaddset(&set, s);
  return set;
}

void read_records(const fs::path& path, std::map<std::string, record>& into, std::vector<std::string>& order) {
  std::map<std::string, int> here; // key → line: a file holds each record once
  for_each_record(path, "--resume", [&](record&& r, int number) {
    const std::string key = resume_key(r);
    if (const auto [it, fresh] = here.emplace(key, number); !fresh)
      throw usage_error("--resume: " + path.string() + ":" + std::to_string(number) + ": a second record of " +
                        r.algorithm + " " + to_string(r.parameters) + " " + r.spec + " (the first: line " +
                        std::to_string(it->second) + ")");
    if (r.skipped) return; // not run then: try again
    if (!into.contains(key)) order.push_back(key);
    into[key] = std::move(r);
  });
}

} // namespace

void for_each_record(const fs::path& path, const std::string& who,
                     const std::function<void(record&&, int line)>& take) {
  if (fs::is_symlink(path))
    throw usage_error(who + ": " + path.string() +
                      " is a symbolic link; winnow follows no link inside --out: remove it");
  std::ifstream in(path);
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.empty()) continue;
    record r;
    try {
      r = from_json_line(line);
    } catch (const error& e) {
      // The journal's last line may be cut short by a crash; anything else is someone else's file.
      if (in.peek() == std::char_traits<char>::eof() && path.string().ends_with(".journal.jsonl")) break;
      throw usage_error(who + ": " + path.string() + ":" + std::to_string(number) + ": " + e.what());
    }
    try {
      check_record(r, all_backends());
    } catch (const error& e) {
      throw usage_error(who + ": " + path.string() + ":" + std::to_string(number) + ": " + e.what());
    }
    take(std::move(r), number);
  }
}

void check_output_file(const std::string& option, const std::string& path, const std::vector<std::string>& extensions) {
  std::string list;
  bool known = false;
  for (const auto& e : extensions) {
    list += (list.empty() ? "" : " or ") + e;
    known = known || (path.size() > e.size() && path.ends_with(e));
  }
  if (path.empty()) throw usage_error(option + ": empty file name");
  if (!known) throw usage_error(option + " " + path + ": the name must end in " + list);
  const fs::path p(path);
  if (fs::is_directory(p)) throw usage_error(option + " " + path + ": is a folder");
  if (p.has_parent_path() && !fs::is_directory(p.parent_path()))
    throw usage_error(option + " " + path + ": the folder " + p.parent_path().string() + " does not exist");
  // Proven writable now, not after the work: a file made there (and removed) as the output will be.
  const fs::path folder = p.has_parent_path() ? p.parent_path() : fs::path(".");
  std::string probe = (folder / ".winnow-write-test.XXXXXX").string();
  const int fd = ::mkstemp(probe.data());
  if (fd < 0)
    throw usage_error(option + " " + path + ": cannot write into " + folder.string() + ": " + std::strerror(errno));
  ::close(fd);
  ::unlink(probe.c_str());
}

std::string resume_key(const record& r) {
  std::string key = r.algorithm + "\n" + r.spec + "\n" + r.device;
  for (const auto& [k, v] : r.parameters) key += "\n" + k + "=" + v;
  return key;
}

results_folder::results_folder(fs::path dir, std::string name) : dir_(std::move(dir)), name_(std::move(name)) {
  std::error_code ec;
  const bool existed = fs::exists(dir_, ec);
  fs::create_directories(dir_, ec);
  if (ec) throw usage_error("--out " + dir_.string() + ": cannot create the folder: " + ec.message());
  created_dir_ = !existed;
  const fs::path lock = dir_ / ".winnow.lock";
  created_lock_ = !fs::exists(fs::symlink_status(lock));
  // No link is followed inside --out: a link named like winnow's lock or journal would make it write
  // elsewhere. The final files are written through a rename, which replaces a link, not its target.
  lock_fd_ = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (lock_fd_ < 0) {
    const int err = errno;
    if (err == ELOOP)
      throw usage_error("--out " + dir_.string() + ": " + lock.string() +
                        " is a symbolic link; winnow follows no link inside --out: remove it");
    throw usage_error("--out " + dir_.string() + ": cannot open the lock " + lock.string() + ": " + std::strerror(err) +
                      (err == EISDIR ? " (remove it)" : ""));
  }
  for (const char* suffix : {".journal.jsonl", ".jsonl"})
    if (const fs::path p = dir_ / (name_ + suffix); fs::is_symlink(p)) {
      ::close(lock_fd_);
      lock_fd_ = -1;
      if (created_lock_) fs::remove(lock, ec);
      if (created_dir_) fs::remove(dir_, ec);
      throw usage_error("--out " + dir_.string() + ": " + p.string() +
                        " is a symbolic link; winnow follows no link inside --out: remove it");
    }
  if (::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
    char pid[32] = {};
    (void)!::pread(lock_fd_, pid, sizeof pid - 1, 0);
    ::close(lock_fd_);
    lock_fd_ = -1;
    throw usage_error("--out " + dir_.string() + ": another winnow (pid " + std::string(pid) +
                      ") is writing into this folder; wait for it or choose another --out");
  }
  const std::string me = std::to_string(::getpid());
  if (::ftruncate(lock_fd_, 0) != 0 || ::pwrite(lock_fd_, me.data(), me.size(), 0) < 0) {
    // The pid is only for the message another process prints; the lock itself holds.
  }
}

results_folder::~results_folder() {
  if (started_ && !finished_) {
    try {
      const std::lock_guard lock(mutex_);
      write_final(false); // an exception ended the sweep: keep what finished, marked incomplete
    } catch (...) {}
  }
  stop_signal_thread();
  if (journal_fd_ >= 0) ::close(journal_fd_);
  // An error before the sweep began (a usage error in the plan, say) leaves --out as it was: the
  // lock and the folder go again where this run made them (the folder only while it is empty).
  if (!started_ && std::uncaught_exceptions() > 0 && lock_fd_ >= 0) {
    std::error_code ec;
    if (created_lock_) fs::remove(dir_ / ".winnow.lock", ec);
    if (created_dir_) fs::remove(dir_, ec);
  }
  if (lock_fd_ >= 0) ::close(lock_fd_); // releases the flock
}

std::vector<record> results_folder::previous() const {
  std::map<std::string, record> by_key;
  std::vector<std::string> order;
  for (const auto* suffix : {".jsonl", ".journal.jsonl"}) {
    const fs::path p = dir_ / (name_ + suffix);
    if (fs::exists(fs::symlink_status(p))) read_records(p, by_key, order);
  }
  std::vector<record> out;
  for (const auto& key : order) out.push_back(by_key.at(key));
  return out;
}

void results_folder::add(record r) {
  const std::lock_guard lock(mutex_);
  if (journal_fd_ < 0) {
    const fs::path journal = dir_ / (name_ + ".journal.jsonl");
    journal_fd_ = ::open(journal.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (journal_fd_ < 0) throw error("bench: cannot write " + journal.string() + ": " + std::strerror(errno));
    for (const auto& earlier : records_) {
      const std::string line = to_json_line(earlier) + "\n";
      if (::write(journal_fd_, line.data(), line.size()) < 0) throw error("bench: cannot write " + journal.string());
    }
  }
  const std::string line = to_json_line(r) + "\n";
  // One write per record (O_APPEND) and a data sync: a crash loses at most the record being written.
  if (::write(journal_fd_, line.data(), line.size()) != static_cast<ssize_t>(line.size()) ||
      ::fdatasync(journal_fd_) != 0)
    throw error("bench: cannot append to the journal in " + dir_.string() + ": " + std::strerror(errno));
  records_.push_back(std::move(r));
}

void results_folder::keep(std::vector<record> earlier) {
  const std::lock_guard lock(mutex_);
  records_.insert(records_.begin(), std::make_move_iterator(earlier.begin()), std::make_move_iterator(earlier.end()));
}

void results_folder::describe(std::map<std::string, std::string> not_run, std::size_t planned) {
  const std::lock_guard lock(mutex_);
  not_run_ = std::move(not_run);
  planned_ = planned;
  started_ = true;
}

void results_folder::annotate(const std::string& key, std::string json_text) {
  const std::lock_guard lock(mutex_);
  extra_[key] = std::move(json_text);
}

const std::vector<record>& results_folder::finish() {
  {
    const std::lock_guard lock(mutex_);
    write_final(true);
    finished_ = true;
  }
  stop_signal_thread();
  return records_;
}

void results_folder::write_final(bool complete) {
  const fs::path b = base();
  nlohmann::ordered_json status;
  status["complete"] = complete;
  status["records"] = records_.size();
  status["planned"] = planned_;
  status["not_run"] = not_run_;
  record me;
  stamp(me); // this process's command line (resumed records keep the one that made them)
  status["command"] = me.command;
  for (const auto& [key, text] : extra_) status[key] = nlohmann::ordered_json::parse(text);
  // Status last: a reader that finds it complete finds the records complete.
  write_jsonl(b.string() + ".jsonl", records_);
  write_csv(b.string() + ".csv", records_);
  write_atomically(b.string() + ".status.json", status.dump(2) + "\n");
  std::error_code ec;
  fs::remove(b.string() + ".journal.jsonl", ec);
}

void results_folder::guard_signals() {
  const sigset_t set = handled_signals();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  signals_ = std::thread([this, set] {
    int sig = 0;
    sigwait(&set, &sig);
    if (sig == SIGUSR1) return; // finish() or the destructor: done
    const std::lock_guard lock(mutex_);
    if (!finished_) {
      try {
        write_final(false);
        std::cerr << "\ninterrupted (" << strsignal(sig) << "): wrote the " << records_.size()
                  << " finished records to " << base().string()
                  << ".jsonl/.csv, marked incomplete; run again with --resume to finish\n";
      } catch (const std::exception& e) {
        std::cerr << "\ninterrupted (" << strsignal(sig) << "): " << e.what() << "; the journal " << base().string()
                  << ".journal.jsonl keeps the finished records\n";
      }
    }
    std::_Exit(128 + sig);
  });
}

void results_folder::hand_over() {
  const std::lock_guard lock(mutex_);
  stop_signal_thread();
}

void results_folder::stop_signal_thread() {
  if (!signals_.joinable()) return;
  pthread_kill(signals_.native_handle(), SIGUSR1);
  signals_.join();
  // A SIGINT that arrives after this point finds the default action again: the files are whole.
  const sigset_t set = handled_signals();
  pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
}

} // namespace winnow::cli
