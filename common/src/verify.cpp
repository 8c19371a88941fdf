#include "winnow/verify.hpp"

#include <algorithm>
#include <cstddef>
#include <optional>
#include <sstream>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include "winnow/compat.hpp"
#include "winnow/host_memory.hpp"
#include "winnow/removed_mask.hpp"

namespace winnow {
namespace {

std::string str(std::size_t v) { return std::to_string(v); }

/// Whether `fine(i)` holds for every i < n, decided by all cores: a 512M-element record's check took
/// seconds on one. Callers that find a difference name it by their sequential pass, so the message is
/// the same however the work was split.
template <class Fine> bool all_fine(std::size_t n, const Fine& fine) {
  return tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, n, std::size_t{1} << 16), true,
      [&](const tbb::blocked_range<std::size_t>& r, bool ok) {
        for (std::size_t i = r.begin(); ok && i < r.end(); ++i) ok = fine(i);
        return ok;
      },
      [](bool a, bool b) { return a && b; });
}

verdict fail(std::string message, std::size_t mismatches) { return {false, std::move(message), mismatches}; }

verdict compare_exact(const std::vector<std::uint32_t>& expected, const std::vector<std::uint32_t>& actual) {
  if (all_fine(expected.size(), [&](std::size_t i) { return expected[i] == actual[i]; })) return {};
  std::size_t bad = 0, first = 0;
  for (std::size_t i = 0; i < expected.size(); ++i)
    if (expected[i] != actual[i] && bad++ == 0) first = i;
  if (bad == 0) return {};
  return fail("output[" + str(first) + "]: expected " + str(expected[first]) + ", got " + str(actual[first]) + " (" +
                  str(bad) + " of " + str(expected.size()) + " elements differ)",
              bad);
}

verdict multiset_message(const std::vector<std::uint32_t>& actual, std::size_t missing_count,
                         std::uint32_t first_missing, std::size_t extra_count, std::size_t first_extra_at) {
  if (missing_count == 0 && extra_count == 0) return {};
  // A stream, not `" " + str(…)`: GCC 12 warns -Wrestrict on that concatenation at -O3 (a false
  // positive, GCC bug 105651).
  std::ostringstream msg;
  msg << "multiset differs:";
  if (missing_count) msg << " " << missing_count << " expected values missing (first: " << first_missing << ");";
  if (extra_count)
    msg << " " << extra_count << " unexpected values (first: output[" << first_extra_at
        << "] = " << actual[first_extra_at] << ");";
  std::string text = msg.str();
  text.pop_back();
  return fail(text, std::max(missing_count, extra_count));
}

/// Whether a byte a value, up to the largest expected one, is cheap beside the data checked: `span` is
/// the larger of the input's and the output's sizes. The corpus's payloads are index + 1, so at most
/// the input's size: measured against the survivors alone, a case removing 90 % of 512M elements sorted
/// its 54M survivors twice on one core (9 s a record on the H200's host, against 0.8 s at 50 %).
/// Larger values are sorted instead.
bool byte_map_fits(std::uint32_t top, std::size_t span) { return std::uint64_t{top} <= 4 * std::uint64_t{span} + 64; }

/// Whether `actual` holds exactly the values of `expected` (of equal size), decided on all cores with
/// one byte a value up to the largest expected one: every expected value marked 1, every actual one
/// found marked and marked 2, then the 2s counted. As many 2s as values means both are the same set of
/// distinct values. Relaxed atomic stores, no read-modify-write: a race only writes a byte with another
/// non-zero value, and only the count of 2s decides. False says nothing about why: the one-core
/// comparisons below find it (so a failing check pays for both). On two cores this is no faster than the
/// one-core bitmap (16 s either way for two 128M-element cases of cpu/redzone; an earlier version with
/// atomic read-modify-writes was slower, 0.84 against 0.70 s at 64M survivors); the GPU machine has 16.
bool same_distinct_values(const std::vector<std::uint32_t>& expected, const std::vector<std::uint32_t>& actual,
                          std::size_t span) {
  using range = tbb::blocked_range<std::size_t>;
  constexpr std::size_t grain = std::size_t{1} << 16;
  const std::size_t n = expected.size();
  const std::uint32_t top = tbb::parallel_reduce(
      range(0, n, grain), std::uint32_t{0},
      [&](const range& r, std::uint32_t m) {
        for (std::size_t i = r.begin(); i < r.end(); ++i) m = std::max(m, expected[i]);
        return m;
      },
      [](std::uint32_t a, std::uint32_t b) { return std::max(a, b); });
  if (n == 0 || !byte_map_fits(top, span)) return n == 0 && actual.empty();
  scratch_vector<std::uint8_t> map(std::size_t{top} + 1);
  std::vector<std::uint8_t>& state = map.v;
  const auto mark = [&](std::uint32_t v, std::uint8_t to) {
    atomic_ref<std::uint8_t>(state[v]).store(to, std::memory_order_relaxed);
  };
  tbb::parallel_for(range(0, n, grain), [&](const range& r) {
    for (std::size_t i = r.begin(); i < r.end(); ++i) mark(expected[i], 1);
  });
  const bool all_expected = all_fine(actual.size(), [&](std::size_t i) {
    const std::uint32_t v = actual[i];
    if (v > top || atomic_ref<std::uint8_t>(state[v]).load(std::memory_order_relaxed) == 0) return false;
    mark(v, 2);
    return true;
  });
  if (!all_expected) return false;
  const std::size_t twos = tbb::parallel_reduce(
      range(0, state.size(), grain), std::size_t{0},
      [&](const range& r, std::size_t c) {
        for (std::size_t v = r.begin(); v < r.end(); ++v) c += state[v] == 2;
        return c;
      },
      [](std::size_t a, std::size_t b) { return a + b; });
  return twos == n && actual.size() == n;
}

/// O(n) with a bitmap when the expected values are distinct and at most a few times the input's size
/// (byte_map_fits): sorting 2^28 elements twice took most of a benchmark's time.
std::optional<verdict> compare_multiset_bitmap(const std::vector<std::uint32_t>& expected,
                                               const std::vector<std::uint32_t>& actual, std::size_t span) {
  std::uint32_t top = 0;
  for (const std::uint32_t v : expected) top = std::max(top, v);
  if (!byte_map_fits(top, span)) return std::nullopt;
  scratch_vector<std::uint8_t> map(std::size_t{top} + 1);
  std::vector<std::uint8_t>& state = map.v; // 1 expected, 2 expected and seen
  for (const std::uint32_t v : expected) {
    if (state[v]) return std::nullopt; // not distinct: sort instead
    state[v] = 1;
  }
  std::size_t extra = 0, first_extra = 0;
  for (std::size_t i = 0; i < actual.size(); ++i) {
    const std::uint32_t v = actual[i];
    if (v <= top && state[v] == 1) state[v] = 2;
    else if (extra++ == 0) first_extra = i; // never expected, or a duplicate
  }
  std::size_t missing = 0;
  std::uint32_t first_missing = 0;
  for (std::size_t v = 0; v <= top; ++v)
    if (state[v] == 1 && missing++ == 0) first_missing = static_cast<std::uint32_t>(v);
  return multiset_message(actual, missing, first_missing, extra, first_extra);
}

/// Whether `actual` is the multiset of w's survivors (`survivor(i)`: what reference_compact keeps),
/// decided on what moved: an output element that holds, at its own index, the survivor of that index
/// is in both multisets, so only the other outputs are compared with the other survivors. An
/// in-place algorithm leaves most where they were (Redzone fills the holes among the first m from
/// behind them: at k = 2 % of 512M elements it moves 10M of the 502M kept), and the whole comparison
/// was most of a cpu/redzone record's host time. False says only "not shown": fewer than half in
/// place (judged from 64 samples first, needing 40: an output in another order, or Redzone's at
/// k ≥ 40 %, costs nothing more), or same_distinct_values could not tell. compare_multiset decides
/// then, and names any difference.
template <class Survivor>
bool same_multiset_where_moved(const workload& w, const std::vector<std::uint32_t>& actual, const Survivor& survivor) {
  const std::size_t m = actual.size();
  if (m > w.size() || m < 64) return false;
  const auto in_place = [&](std::size_t i) { return survivor(i) && actual[i] == w.data[i]; };
  std::size_t sampled = 0;
  for (std::size_t s = 0; s < 64; ++s) sampled += in_place(s * (m / 64));
  if (sampled < 40) return false;
  // A chunk's own lists, filled on all cores and joined in chunk order.
  struct lists {
    std::vector<std::uint32_t> moved, wanted;
  };
  constexpr std::size_t chunk = std::size_t{1} << 20;
  std::vector<lists> parts((w.size() + chunk - 1) / chunk);
  tbb::parallel_for(std::size_t{0}, parts.size(), [&](std::size_t c) {
    lists& l = parts[c];
    for (std::size_t i = c * chunk; i < std::min(w.size(), (c + 1) * chunk); ++i) {
      if (i < m && in_place(i)) continue;
      if (i < m) l.moved.push_back(actual[i]);
      if (survivor(i)) l.wanted.push_back(w.data[i]);
    }
  });
  std::vector<std::uint32_t> moved, wanted;
  for (const lists& l : parts) {
    moved.insert(moved.end(), l.moved.begin(), l.moved.end());
    wanted.insert(wanted.end(), l.wanted.begin(), l.wanted.end());
  }
  return 2 * moved.size() <= m && same_distinct_values(wanted, moved, w.size());
}

/// same_multiset_where_moved with w's survivors as the reference knows them: the removal mask given
/// (of the stream's size), or for a predicate case the non-zero payloads. Without either, false.
bool same_where_moved(const workload& w, const std::vector<std::uint32_t>& actual,
                      std::span<const std::uint8_t> removed) {
  if (removed.size() == w.size())
    return same_multiset_where_moved(w, actual, [&](std::size_t i) { return removed[i] == 0; });
  if (!w.removal_list) return same_multiset_where_moved(w, actual, [&](std::size_t i) { return w.data[i] != 0; });
  return false;
}

verdict compare_multiset(const std::vector<std::uint32_t>& expected, const std::vector<std::uint32_t>& actual,
                         std::size_t span) {
  if (same_distinct_values(expected, actual, span)) return {};
  if (auto v = compare_multiset_bitmap(expected, actual, span)) return *v;
  std::vector<std::uint32_t> e = expected, a = actual;
  std::sort(e.begin(), e.end());
  std::sort(a.begin(), a.end());
  // Walk both sorted lists: values only in e are missing, values only in a are unexpected (or
  // duplicated). Valid payloads are unique, so any repeat in a is a duplicate.
  std::vector<std::uint32_t> missing, extra;
  std::size_t i = 0, j = 0;
  while (i < e.size() || j < a.size()) {
    if (j == a.size() || (i < e.size() && e[i] < a[j])) missing.push_back(e[i++]);
    else if (i == e.size() || a[j] < e[i]) extra.push_back(a[j++]);
    else ++i, ++j;
  }
  if (missing.empty() && extra.empty()) return {};
  const auto at = extra.empty() ? 0 : std::find(actual.begin(), actual.end(), extra[0]) - actual.begin();
  return multiset_message(actual, missing.size(), missing.empty() ? 0 : missing[0], extra.size(),
                          static_cast<std::size_t>(at));
}

verdict check_input(const workload& w, const std::vector<std::uint32_t>& after, std::span<const std::uint8_t> removed) {
  if (after.size() != w.size())
    return fail("input changed size: expected " + str(w.size()) + ", got " + str(after.size()), 1);
  std::vector<std::uint8_t> made; // where the caller has none
  if (removed.size() != w.size()) removed = made = removed_mask(w);
  // A mark phase may write payload 0 at removed indices; nothing else may change.
  const auto fine = [&](std::size_t i) { return after[i] == w.data[i] || (after[i] == 0 && removed[i]); };
  if (all_fine(after.size(), fine)) return {};
  std::size_t bad = 0, first = 0;
  for (std::size_t i = 0; i < after.size(); ++i)
    if (!fine(i) && bad++ == 0) first = i;
  return fail("input changed (out-of-place algorithm): input[" + str(first) + "]: expected " + str(w.data[first]) +
                  ", got " + str(after[first]) + " (" + str(bad) + " elements changed)",
              bad);
}

} // namespace

verdict verify(const workload& w, const std::vector<std::uint32_t>& expected, const compaction_output& out, bool stable,
               std::span<const std::uint8_t> removed) {
  if (out.values.size() != expected.size()) {
    // Say where the contents start to differ too: it usually tells which block went wrong.
    const std::size_t common = std::min(out.values.size(), expected.size());
    std::size_t first = common;
    for (std::size_t i = 0; i < common; ++i)
      if (out.values[i] != expected[i]) {
        first = i;
        break;
      }
    std::string msg = "count: expected " + str(expected.size()) + ", got " + str(out.values.size());
    if (stable && first < common)
      msg += "; first difference at output[" + str(first) + "]: expected " + str(expected[first]) + ", got " +
             str(out.values[first]);
    return fail(msg, expected.size() > out.values.size() ? expected.size() - out.values.size()
                                                         : out.values.size() - expected.size());
  }
  verdict v = stable ? compare_exact(expected, out.values)
              : same_where_moved(w, out.values, removed)
                  ? verdict{}
                  : compare_multiset(expected, out.values, std::max(w.size(), expected.size()));
  if (!v.ok) return v;
  if (out.input_after) return check_input(w, *out.input_after, removed);
  return {};
}

} // namespace winnow
