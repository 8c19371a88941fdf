#pragma once
// Runs the winnow CLI as a user would, for the tests of its exit codes, messages and files.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

extern char** environ;

namespace winnow_test {

struct result {
  int code;           ///< exit status (-1 when killed)
  std::string output; ///< stdout and stderr
};

/// `ENV PROGRAM ARGS` through the shell (ENV: NAME=value assignments, ARGS quoted as the shell wants).
inline result run_program(const std::string& program, const std::string& env, const std::string& args) {
  const std::string cmd = env + " " + program + " " + args + " 2>&1";
  std::FILE* p = ::popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  const int status = ::pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

/// `ENV winnow ARGS` through the shell.
inline result winnow_with(const std::string& env, const std::string& args) {
  return run_program(WINNOW_EXE, env, args);
}

/// `winnow ARGS` through the shell.
inline result winnow(const std::string& args) { return winnow_with("", args); }

/// How many times `what` occurs in `text`.
inline std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

/// Starts `winnow ARGS` in the background, stdout and stderr into `log`, for the tests that signal
/// or race it; waitpid() it.
inline pid_t start(const std::vector<std::string>& args, const std::filesystem::path& log) {
  std::vector<std::string> argv = {WINNOW_EXE};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> raw;
  for (auto& a : argv) raw.push_back(a.data());
  raw.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid = 0;
  EXPECT_EQ(posix_spawn(&pid, WINNOW_EXE, &actions, nullptr, raw.data(), environ), 0) << "cannot start " << WINNOW_EXE;
  posix_spawn_file_actions_destroy(&actions);
  return pid;
}

} // namespace winnow_test
