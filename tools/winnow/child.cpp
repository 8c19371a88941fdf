#include "child.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>

#include "winnow/error.hpp"

extern char** environ;

namespace winnow::cli {
namespace {

volatile sig_atomic_t child_pid = 0;
volatile sig_atomic_t got_signal = 0;

void pass_on(int sig) {
  got_signal = sig;
  if (child_pid > 0) ::kill(child_pid, sig); // async-signal-safe
}

/// Installs pass_on for the time a child runs, and puts the old handlers back.
struct signal_relay {
  struct sigaction old[3];
  static constexpr int signals[3] = {SIGINT, SIGTERM, SIGHUP};
  signal_relay() {
    struct sigaction sa {};
    sa.sa_handler = pass_on;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < 3; ++i) sigaction(signals[i], &sa, &old[i]);
  }
  ~signal_relay() {
    for (int i = 0; i < 3; ++i) sigaction(signals[i], &old[i], nullptr);
  }
};

} // namespace

std::string self_executable() {
  std::error_code ec;
  const auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) throw error("reproduce: cannot find this executable (/proc/self/exe): " + ec.message());
  return p.string();
}

namespace {
/// argv for exec and spawn: pointers into `args`, then nullptr.
std::vector<char*> c_argv(const std::vector<std::string>& args) {
  std::vector<char*> out;
  for (const auto& a : args) out.push_back(const_cast<char*>(a.c_str()));
  out.push_back(nullptr);
  return out;
}

std::vector<std::string>& own_arguments() {
  static std::vector<std::string> args;
  return args;
}
} // namespace

void keep_arguments(int argc, char** argv) { own_arguments().assign(argv, argv + argc); }

void restart_fresh(const std::vector<std::string>& more) {
  std::vector<std::string> args = own_arguments();
  if (args.empty()) throw error("winnow: restart_fresh before keep_arguments"); // never: a bug
  for (const auto& a : more)
    if (std::find(args.begin() + 1, args.end(), a) == args.end()) args.push_back(a);
  const std::string exe = self_executable();
  ::execv(exe.c_str(), c_argv(args).data());
  throw error("winnow: cannot start " + exe + " again: " + std::strerror(errno));
}

bool interrupted() { return got_signal != 0; }

int interrupt_signal() { return got_signal; }

child_result run_child(const std::vector<std::string>& argv, bool capture) {
  std::vector<char*> args = c_argv(argv);

  int pipe_fd[2] = {-1, -1};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (capture) {
    if (::pipe(pipe_fd) != 0) throw error(std::string("reproduce: pipe: ") + std::strerror(errno));
    posix_spawn_file_actions_adddup2(&actions, pipe_fd[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, pipe_fd[0]);
    posix_spawn_file_actions_addclose(&actions, pipe_fd[1]);
  }
  const signal_relay relay;
  pid_t pid = 0;
  const int rc = argv[0].find('/') == std::string::npos
                     ? posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ)
                     : posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (capture) ::close(pipe_fd[1]);
  if (rc != 0) {
    if (capture) ::close(pipe_fd[0]);
    throw error("reproduce: cannot start " + argv[0] + ": " + std::strerror(rc));
  }
  child_pid = pid;
  child_result result;
  if (capture) {
    char buf[4096];
    for (;;) {
      const auto n = ::read(pipe_fd[0], buf, sizeof buf);
      if (n > 0) result.output.append(buf, static_cast<std::size_t>(n));
      else if (n == 0 || errno != EINTR) break;
    }
    ::close(pipe_fd[0]);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  child_pid = 0;
  result.exit = WIFEXITED(status) ? WEXITSTATUS(status) : WIFSIGNALED(status) ? 128 + WTERMSIG(status) : -1;
  return result;
}

} // namespace winnow::cli
