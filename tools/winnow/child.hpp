#pragma once
// Child processes for `winnow reproduce`: each API runs in a process of its own
// (docs/driver-quirks.md), so the parent starts this same executable again for every step. And a
// fresh process in place of this one, for a bench whose run lost its API's context.
#include <string>
#include <vector>

namespace winnow::cli {

/// This executable's path (/proc/self/exe), for starting it again.
[[nodiscard]] std::string self_executable();

struct child_result {
  int exit = -1;      ///< exit status, or 128 + signal when a signal ended it
  std::string output; ///< stdout, when captured
};

/// Runs argv[0] (searched on PATH when it has no '/') with the given arguments and waits.
/// SIGINT/SIGTERM/SIGHUP sent to this process while it waits are passed on to the child, which
/// decides what to do with them (a bench writes what it has); interrupted() then says so.
/// capture: stdout comes back in output instead of going to ours.
child_result run_child(const std::vector<std::string>& argv, bool capture = false);

/// Keeps this process's arguments (main does), for restart_fresh().
void keep_arguments(int argc, char** argv);

/// Replaces this process with a fresh one of the same executable (execv: the same pid, so a parent
/// waiting for it goes on waiting), given the same arguments and those of `more` it lacks. Throws
/// winnow::error when the exec fails.
[[noreturn]] void restart_fresh(const std::vector<std::string>& more);

/// A signal arrived while a child ran (the parent should stop after it).
[[nodiscard]] bool interrupted();
/// The signal interrupted() saw (0: none): the parent exits with 128 + it, as a bench does.
[[nodiscard]] int interrupt_signal();

} // namespace winnow::cli
