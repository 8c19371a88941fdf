#pragma once
/// Errors in three tiers: `error` for a failed call or a broken invariant, `usage_error`
/// for bad input from the user (the CLI exits with 2), `unavailable` for a missing capability (the
/// harness records the case as skipped with that reason and goes on). `context_lost` is the failed
/// call after which nothing more can run on that API in this process.
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "winnow/compat.hpp"

namespace winnow {

/// A failed API call or a broken invariant. The message starts with who speaks.
class error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Bad input from the user: an unknown algorithm, a malformed spec, a parameter out of range.
/// The message names the bad part and the accepted values.
class usage_error : public error {
public:
  using error::error;
};

/// A capability this machine lacks (no device, no extension, a size over a limit). Not a bug.
class unavailable : public error {
public:
  using error::error;
};

/// The API's context is gone: a CUDA sticky error (an illegal address, a failed launch), Vulkan's
/// VK_ERROR_DEVICE_LOST, a GL context reset (GL_CONTEXT_LOST). Every later call on that API in this
/// process fails too, so the harness records the run as failed with this reason and `winnow bench`
/// goes on in a fresh process (docs/design-notes.md, "A fault costs one record").
class context_lost : public error {
public:
  using error::error;
};

/// " (did you mean 'x'?)" when one of `known` is a small edit away from `given` (two edits, a third of
/// its letters if more, one for a word of one or two letters), the nearest first; "" otherwise. For the usage errors of
/// names.
[[nodiscard]] std::string did_you_mean(std::string_view given, const std::vector<std::string>& known);

/// Throws `error` with "file:line: call: what", for the WINNOW_*_CHECK macros of every backend.
[[noreturn]] void throw_call_error(std::string_view call, std::string_view what,
                                   source_location where = source_location::current());
/// The same, as context_lost: for the results after which the API's context is gone.
[[noreturn]] void throw_context_lost(std::string_view call, std::string_view what,
                                     source_location where = source_location::current());

} // namespace winnow
