#pragma once
// Where a `winnow reproduce` step's time went, from the records it left (reproduce.json's "time").
#include <filesystem>
#include <nlohmann/json.hpp>

namespace winnow::cli {

/// A bench step's `seconds` split by what its records say [s]: "timed" (the timed repetitions:
/// host_ms.runs less the warm-up), "warmup" (warmup_ran_ms), "make" (host_ms.make: waiting for the
/// cases), "upload" (host_ms.prepare: the algorithm set up, its buffers allocated and the case
/// uploaded), "check" (host_ms.result and host_ms.check: the output read back, where it was, and
/// verified) and "other" (the rest of `seconds`: starting the process and the backend, releasing,
/// writing the files). Records from
/// before host_ms was kept count their timed repetitions from the wall time and reps. A missing or
/// unreadable file: all of `seconds` is "other".
[[nodiscard]] nlohmann::ordered_json step_time(const std::filesystem::path& jsonl, double seconds);

} // namespace winnow::cli
