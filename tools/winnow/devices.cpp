// `winnow reproduce PAPER --out DIR --devices all|0,2,…`: several GPUs of one host at once. One
// child reproduction per device, each shard K of N into DIR/shards/K with its device chosen through
// the environment (CUDA_VISIBLE_DEVICES for CUDA, WINNOW_DEVICE for Vulkan and EGL), then the
// shards merged into DIR and `reproduce` on DIR: the deferred steps and the report.
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fcntl.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <regex>

#include "child.hpp"
#include "commands.hpp"
#include "winnow/error.hpp"

extern char** environ;

namespace winnow::cli {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t max_children = 64;
volatile sig_atomic_t children[max_children] = {};
volatile sig_atomic_t stopped = 0;

void pass_on(int sig) {
  stopped = sig;
  for (auto& pid : children)
    if (pid > 0) ::kill(pid, sig); // async-signal-safe
}

/// "all": CUDA_VISIBLE_DEVICES's list where it is set, else one per /dev/nvidiaN.
std::vector<std::string> all_devices() {
  std::vector<std::string> out;
  if (const char* v = std::getenv("CUDA_VISIBLE_DEVICES"); v && *v) {
    const std::string text(v);
    for (std::size_t start = 0; start <= text.size();) {
      const std::size_t end = std::min(text.find(',', start), text.size());
      if (end > start) out.push_back(text.substr(start, end - start));
      start = end + 1;
    }
    return out;
  }
  const std::regex gpu("nvidia([0-9]+)");
  std::vector<int> found;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/dev", ec)) {
    std::smatch m;
    const std::string name = e.path().filename().string();
    if (std::regex_match(name, m, gpu)) found.push_back(std::stoi(m[1].str()));
  }
  std::sort(found.begin(), found.end());
  for (int d : found) out.push_back(std::to_string(d));
  return out;
}

std::vector<std::string> parse_devices(const std::string& text) {
  if (text == "all") {
    auto out = all_devices();
    if (out.empty())
      throw usage_error(
          "reproduce: --devices all found no GPU (no /dev/nvidiaN, no CUDA_VISIBLE_DEVICES); name them: --devices 0,1");
    return out;
  }
  std::vector<std::string> out;
  for (std::size_t start = 0; start <= text.size();) {
    const std::size_t end = std::min(text.find(',', start), text.size());
    const std::string d = text.substr(start, end - start);
    if (d.empty() || d.size() > 4 || d.find_first_not_of("0123456789") != std::string::npos)
      throw usage_error("reproduce: --devices '" + text + "' is not all or a list of device numbers (e.g. 0,2)");
    out.push_back(d);
    start = end + 1;
  }
  if (out.size() > max_children) throw usage_error("reproduce: --devices '" + text + "' names more than 64 devices");
  return out;
}

pid_t start(const std::vector<std::string>& argv, const std::vector<std::string>& env, const fs::path& log) {
  std::vector<char*> args, envp;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  for (const auto& e : env) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw error("reproduce: cannot start " + argv[0] + ": " + std::strerror(rc));
  return pid;
}

} // namespace

int reproduce_on_devices(const reproduce_args& a) {
  const std::vector<std::string> devices = parse_devices(a.devices);
  const std::size_t n = devices.size();
  const fs::path dir = a.out;
  const fs::path shards = dir / "shards";
  std::error_code ec;
  fs::create_directories(shards, ec);
  if (ec)
    throw usage_error("reproduce: --out " + dir.string() + ": cannot create " + shards.string() + ": " + ec.message());
  const std::string self = self_executable();

  // The children's environment: ours, with the device variables set for each.
  std::vector<std::string> base_env;
  for (char** e = environ; *e; ++e) {
    const std::string v(*e);
    if (!v.starts_with("CUDA_VISIBLE_DEVICES=") && !v.starts_with("WINNOW_DEVICE=") &&
        !v.starts_with("CUDA_DEVICE_ORDER="))
      base_env.push_back(v);
  }
  struct sigaction sa {
  }, old[3];
  sa.sa_handler = pass_on;
  sigemptyset(&sa.sa_mask);
  constexpr int signals[3] = {SIGINT, SIGTERM, SIGHUP};
  for (int i = 0; i < 3; ++i) sigaction(signals[i], &sa, &old[i]);

  std::vector<pid_t> pids(n, 0);
  std::vector<fs::path> folders, logs;
  for (std::size_t k = 0; k < n; ++k) {
    folders.push_back(shards / std::to_string(k));
    logs.push_back(shards / (std::to_string(k) + ".log"));
    std::vector<std::string> argv = {self};
    if (a.debug) argv.push_back("--debug");
    argv.insert(argv.end(), {"reproduce", a.paper, "--out", folders[k].string(), "--shard",
                             std::to_string(k) + "/" + std::to_string(n)});
    if (a.quick) argv.push_back("--quick");
    if (a.fresh) argv.push_back("--fresh");
    if (a.check == check_place::host) argv.insert(argv.end(), {"--check", "host"});
    std::vector<std::string> env = base_env;
    // CUDA numbers devices fastest first unless told to follow the bus, as nvidia-smi, Vulkan and EGL do.
    env.insert(env.end(),
               {"CUDA_DEVICE_ORDER=PCI_BUS_ID", "CUDA_VISIBLE_DEVICES=" + devices[k], "WINNOW_DEVICE=" + devices[k]});
    pids[k] = start(argv, env, logs[k]);
    children[k] = pids[k];
    std::cerr << "reproduce: shard " << k << "/" << n << " on device " << devices[k] << " (pid " << pids[k] << ", log "
              << logs[k].string() << ")\n";
  }
  int worst = 0;
  for (std::size_t k = 0; k < n; ++k) {
    int status = 0;
    while (::waitpid(pids[k], &status, 0) < 0 && errno == EINTR) {}
    children[k] = 0;
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    std::cerr << "reproduce: shard " << k << "/" << n << " on device " << devices[k] << " exited " << code
              << (code == 0 ? "" : " (its log: " + logs[k].string() + ")") << "\n";
    worst = std::max(worst, code);
  }
  for (int i = 0; i < 3; ++i) sigaction(signals[i], &old[i], nullptr);
  if (stopped) {
    std::cerr << "reproduce: interrupted; the same command goes on from where each shard stopped\n";
    return 130;
  }
  // Exit 1 is a run that failed verification: its records are kept and reported, as unsharded.
  if (worst > 1) {
    std::cerr << "reproduce: a shard failed; nothing merged\n";
    return worst;
  }
  std::vector<std::string> folder_names;
  for (const auto& f : folders) folder_names.push_back(f.string());
  if (merge_command(dir.string(), folder_names) != 0) return 1;
  reproduce_args whole = a;
  whole.devices.clear();
  whole.fresh = false; // the shards measured afresh where asked; the merged folder is kept
  const int code = reproduce_command(whole);
  return code == 0 ? worst : code;
}

} // namespace winnow::cli
