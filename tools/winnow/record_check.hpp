#pragma once
// What `compare` and `bench --resume` accept as a record: a line from_json_line reads that also
// makes sense, checked as strictly as a suite is. A record file may be edited, cut short or written
// by another tool; an impossible value would otherwise give a silently wrong answer (a negative
// median, a NaN geometric mean, a record counted against a plan it is not part of).
#include <string>

#include "winnow/record.hpp"
#include "winnow/registry.hpp"

namespace winnow::cli {

/// Throws error naming the first field that is impossible: an algorithm of a backend this build
/// has that does not exist, or parameters it does not take (or not in their resolved form); a case
/// that is not canonical, or whose n is not the case's; valid or kept beyond n, kept ≠ valid in a
/// verified record; and in a measured record (verified, not skipped) at least one repetition and
/// times that are finite, positive (total and wall) or not negative (phases), with
/// min ≤ q1 ≤ median ≤ q3 ≤ max and min ≤ mean ≤ max. Records of a backend this build lacks keep
/// their algorithm and parameters unchecked: comparing another machine's records is the point.
void check_record(const record& r, const registry& reg);

/// What a JSON Lines file of winnow's holds, by its first line: "records", "seed summaries"
/// (NAME.seeds.jsonl of `bench --seeds`), "calibration" (`calibrate --out`), or "" when none of these.
[[nodiscard]] std::string jsonl_kind(const std::string& first_line);

} // namespace winnow::cli
