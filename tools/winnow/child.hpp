#pragma once
// Child processes for `winnow reproduce`: each API runs in a process of its own
// (docs/driver-quirks.md), so the parent starts this same executable again for every step.
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

/// A signal arrived while a child ran (the parent should stop after it).
[[nodiscard]] bool interrupted();
/// The signal interrupted() saw (0: none): the parent exits with 128 + it, as a bench does.
[[nodiscard]] int interrupt_signal();

} // namespace winnow::cli
