#pragma once
// Runs the winnow CLI as a user would, for the tests of its exit codes, messages and files.
#include <sys/wait.h>

#include <cstdio>
#include <string>

namespace winnow_test {

struct result {
  int code;           ///< exit status (-1 when killed)
  std::string output; ///< stdout and stderr
};

/// `ENV winnow ARGS` through the shell (ENV: NAME=value assignments, ARGS quoted as the shell wants).
inline result winnow_with(const std::string& env, const std::string& args) {
  const std::string cmd = env + " " + std::string(WINNOW_EXE) + " " + args + " 2>&1";
  std::FILE* p = ::popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  const int status = ::pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

/// `winnow ARGS` through the shell.
inline result winnow(const std::string& args) { return winnow_with("", args); }

} // namespace winnow_test
