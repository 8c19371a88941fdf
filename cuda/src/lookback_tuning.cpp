#include "lookback_tuning.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <mutex>
#include <numeric>
#include <tuple>

#include "buffer.hpp"
#include "check.hpp"
#include "context.hpp"
#include "dispatch/lookback.hpp"
#include "dispatch/mark.hpp"
#include "event_timer.hpp"
#include "winnow/error.hpp"
#include "winnow/harness.hpp"

namespace winnow::cuda {
namespace {

/// Rounds of the probe: the first `warm` are thrown away (first launches, a clock still rising).
constexpr int warm_rounds = 2, timed_rounds = 9;
/// Before them, the default runs for this long: the probe comes in the first record's prepare, when
/// the device may have idled while the host made the case.
constexpr auto warm_time = std::chrono::milliseconds(200);
/// The default stays unless a candidate beats it by more than this: two runs of one build moved the
/// 2^28 medians by up to 0.5 % (the H100 session of 2026-12-05).
constexpr double keep_default_margin = 0.01;

std::string name(const lookback_tuning& t) { return t.shape + "/" + std::to_string(t.pause_ns); }

/// The probe itself: every candidate on three densities, out of place, on a stream made on the device.
/// nullopt where the device has no room to stream past its L2 now.
std::optional<lookback_choice> probe(const std::vector<lookback_tuning>& candidates, unsigned words,
                                     const std::string& wait, const std::string& store, unsigned prefetch,
                                     cudaStream_t stream) {
  const std::size_t e = 4ull * words, l2 = context::get().props().l2_bytes;
  std::size_t n = std::max<std::size_t>(8 * l2, std::size_t{256} << 20) / e;
  std::size_t free = 0, total = 0;
  WINNOW_CUDA_CHECK(cudaMemGetInfo(&free, &total));
  // Input, output and the 32-bit payloads: within half of what is free, the record's buffers come after.
  n = std::min(n, free / 2 / (2 * e + 4));
  // Too little room to stream past L2: the probe would time the cache, not the card.
  if (n * e < 2 * l2) return std::nullopt;
  std::vector<lookback_kernel> kernels;
  std::size_t tiles = 0;
  for (const auto& c : candidates) {
    kernels.push_back({words, c.shape, wait, store});
    lookback_prepare(kernels.back());
    tiles = std::max(tiles, (n + lookback_tile(words, c.shape) - 1) / lookback_tile(words, c.shape));
  }
  device_buffer<std::uint32_t> payload(n), in(n * words), out(n * words);
  device_buffer<unsigned long long> status(tiles), counter(1), count(1);
  WINNOW_CUDA_CHECK(cudaMemsetAsync(status.get(), 0, status.bytes(), stream));
  WINNOW_CUDA_CHECK(cudaMemsetAsync(counter.get(), 0, counter.bytes(), stream));
  std::uint32_t epoch = 0;
  unsigned long long base = 0;
  const auto run = [&](std::size_t c) {
    const lookback_state s{in.get(),
                           out.get(),
                           n,
                           status.get(),
                           counter.get(),
                           count.get(),
                           ++epoch,
                           base,
                           prefetch * kernels[c].sms,
                           candidates[c].pause_ns};
    return time_ns(stream, [&] { base += lookback_compact(s, kernels[c], stream); });
  };
  const std::vector<double> densities{0.1, 0.5, 0.9};
  std::vector<std::vector<double>> medians(candidates.size(), std::vector<double>(densities.size()));
  for (std::size_t d = 0; d < densities.size(); ++d) {
    launch_hashed_payloads(payload.get(), n, static_cast<std::uint32_t>(densities[d] * 4294967296.0), stream);
    if (words == 1) in.copy_from(payload, stream);
    else launch_widen(in.get(), words, payload.get(), n, stream);
    if (d == 0)
      for (const auto until = std::chrono::steady_clock::now() + warm_time; std::chrono::steady_clock::now() < until;)
        (void)run(0);
    std::vector<std::vector<double>> ns(candidates.size());
    for (int round = 0; round < warm_rounds + timed_rounds; ++round)
      for (std::size_t j = 0; j < candidates.size(); ++j) {
        const std::size_t c = (j + static_cast<std::size_t>(round)) % candidates.size();
        const double t = run(c);
        if (round >= warm_rounds) ns[c].push_back(t);
      }
    for (std::size_t c = 0; c < candidates.size(); ++c) medians[c][d] = summarize(ns[c]).median;
  }
  const std::size_t best = fastest_candidate(medians, keep_default_margin);
  // What the choice weighed, for the records' notes: each candidate's medians at the three densities.
  std::string weighed = "probed at n = " + std::to_string(n) + "; medians [µs] at 10/50/90 % valid:";
  for (std::size_t c = 0; c < candidates.size(); ++c) {
    char t[64];
    std::snprintf(t, sizeof t, " %.1f/%.1f/%.1f", medians[c][0] / 1e3, medians[c][1] / 1e3, medians[c][2] / 1e3);
    weighed += (c ? "; " : " ") + name(candidates[c]) + t;
  }
  return lookback_choice{candidates[best], weighed};
}

} // namespace

std::vector<lookback_tuning> lookback_candidates(const lookback_request& r, bool pauses) {
  std::vector<lookback_tuning> out;
  for (const char* shape : {"128x16m4", "128x16m5"})
    for (const unsigned pause : {2000u, 1000u, 3000u}) {
      lookback_tuning t{r.shape.value_or(shape), r.pause_ns.value_or(pause)};
      if (!pauses && !r.pause_ns) t.pause_ns = 2000; // never paused: the old default, as records said
      if (std::find(out.begin(), out.end(), t) == out.end()) out.push_back(std::move(t));
    }
  return out;
}

std::size_t fastest_candidate(const std::vector<std::vector<double>>& ns, double margin) {
  if (ns.empty()) throw error("winnow::cuda::fastest_candidate: no candidates");
  std::vector<double> sums;
  for (const auto& c : ns) {
    if (c.size() != ns.front().size()) throw error("winnow::cuda::fastest_candidate: candidates timed unalike");
    sums.push_back(std::accumulate(c.begin(), c.end(), 0.0));
  }
  const auto best = static_cast<std::size_t>(std::min_element(sums.begin(), sums.end()) - sums.begin());
  return sums[best] < sums[0] * (1 - margin) ? best : 0;
}

lookback_choice tuned_lookback(const lookback_request& r, unsigned words, const std::string& wait,
                               const std::string& store, unsigned prefetch, cudaStream_t stream) {
  if (r.shape && r.pause_ns) return {{*r.shape, *r.pause_ns}, ""};
  const auto candidates = lookback_candidates(r, wait != "spin");
  if (candidates.size() == 1) return {candidates.front(), ""};
  static std::mutex mutex;
  static std::map<std::tuple<unsigned, std::string, std::string, unsigned, std::string, unsigned>, lookback_choice>
      chosen;
  const std::lock_guard lock(mutex);
  const auto key = std::tuple(words, wait, store, prefetch, r.shape.value_or("auto"), r.pause_ns.value_or(~0u));
  if (const auto it = chosen.find(key); it != chosen.end()) return it->second;
  // No room for the probe now (beside a large record's buffers, say): this record runs the default,
  // and a later one probes.
  const lookback_choice fallback{candidates.front(), "the default: no room on the device to probe past its L2"};
  try {
    const auto found = probe(candidates, words, wait, store, prefetch, stream);
    return found ? chosen.emplace(key, *found).first->second : fallback;
  } catch (const unavailable&) { return fallback; } // an allocation failed (device_buffer)
}

} // namespace winnow::cuda
