// Billeter et al.'s Tables 4 and 5 on this device. Table 4: the exclusive prefix sum of 32M 32-bit
// values by their method and by CUB, out of place and in place, and 220M in place (the paper's
// in-place example); every variant first runs once on values that wrap around 2^32 and is compared
// with the CPU's sum, element by element; then a chain of runs is timed by CUDA events. Table 5: their
// radix sort (one stream split per key bit) of 4M keys, alone or with 32- or 96-bit values, against
// CUB's where CUB sorts the same; every variant first checked against std::stable_sort, then each of
// 10 runs timed on its own from the unsorted input (restored between runs, untimed), the median.
#include "primitives.hpp"

#include <tbb/parallel_for.h>
#include <tbb/parallel_sort.h>

#include <algorithm>
#include <functional>
#include <iostream>
#include <numeric>
#include <string>

#include "check.hpp"
#include "context.hpp"
#include "dispatch/cub.hpp"
#include "event_timer.hpp"
#include "first_where.hpp"
#include "winnow/error.hpp"

namespace winnow::cuda {

std::uint64_t splitmix64(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

std::vector<std::uint32_t> splitmix64_values(std::size_t n, std::uint64_t seed, std::uint32_t below) {
  std::vector<std::uint32_t> v(n);
  constexpr std::size_t slice = std::size_t{1} << 20;
  tbb::parallel_for(std::size_t{0}, (n + slice - 1) / slice, [&](std::size_t c) {
    std::uint64_t x = seed + c * slice * 0x9e3779b97f4a7c15ull; // the state before element c × slice
    for (std::size_t i = c * slice; i < std::min(n, (c + 1) * slice); ++i) {
      const std::uint64_t z = splitmix64(x);
      v[i] = static_cast<std::uint32_t>(below ? z % below : z);
    }
  });
  return v;
}

std::size_t first_difference(const std::vector<std::uint32_t>& got, const std::vector<std::uint32_t>& want) {
  return first_where(want.size(), [&](std::size_t i) { return got[i] != want[i]; });
}

namespace {

/// The primitives' test data: n pseudo-random 32-bit values, whose sums wrap around 2^32 many times.
std::vector<std::uint32_t> values_of(std::size_t n) { return splitmix64_values(n, 0x5eed); }

/// Mean time of one of `runs` calls of `once`, back to back on the stream, after one untimed call.
double mean_ns(int runs, const std::function<void()>& once) {
  once();
  return time_ns(context::get().stream(),
                 [&] {
                   for (int i = 0; i < runs; ++i) once();
                 }) /
         runs;
}

/// Table 5's rows: the split radix sort of 4M elements of 1, 2 or 4 words (key first, the value words
/// the element's index so that stability shows), and CUB's keys and separate pairs.
void radix_sorts(std::vector<calibration>& out) {
  const cudaStream_t s = context::get().stream();
  constexpr std::size_t n = std::size_t{4} << 20;
  const std::vector<std::uint32_t> keys = values_of(n);
  const auto add = [&](const std::string& name, const std::string& how, double ns) {
    out.push_back(
        {"radix_sort_" + name + "_4M", ns / 1000.0, "µs",
         how +
             "; 4M elements sorted by all 32 key bits; checked against std::stable_sort, then the median of 10 runs"});
  };
  const auto fail = [](const std::string& who, std::size_t i) {
    throw error("winnow::cuda: " + who + " is out of order or unstable at element " + std::to_string(i) +
                " (against std::stable_sort)");
  };
  // The order std::stable_sort gives the keys: every variant's expected output.
  // Sorting (key, index) pairs is that order: equal keys keep their indices' order. On all cores.
  std::vector<std::uint64_t> pairs_sorted(n);
  for (std::size_t i = 0; i < n; ++i) pairs_sorted[i] = std::uint64_t{keys[i]} << 32 | i;
  tbb::parallel_sort(pairs_sorted.begin(), pairs_sorted.end());
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = static_cast<std::uint32_t>(pairs_sorted[i]);
  // §5.3's sort on interleaved elements of 1, 2 or 4 words.
  for (const unsigned words : {1u, 2u, 4u}) {
    std::vector<std::uint32_t> host(n * words);
    for (std::size_t i = 0; i < n; ++i) {
      host[i * words] = keys[i];
      for (unsigned w = 1; w < words; ++w) host[i * words + w] = static_cast<std::uint32_t>(i) ^ (w << 28);
    }
    device_buffer<std::uint32_t> a(n * words), b(n * words), pristine(n * words);
    pristine.upload(host.data(), host.size(), s);
    const split_radix_sort sort(n, words);
    const std::function<void()> restore = [&] { a.copy_from(pristine, s); };
    const std::function<void()> once = [&] { sort.run(a.get(), b.get(), 32, s); };
    restore();
    once();
    const auto got = a.download(n * words, s);
    for (std::size_t i = 0; i < n; ++i)
      for (unsigned w = 0; w < words; ++w)
        if (got[i * words + w] != host[order[i] * words + w]) fail("the split radix sort", i);
    const std::string what = words == 1 ? "keys" : words == 2 ? "pairs_interleaved" : "key96_interleaved";
    add("billeter_" + what,
        std::string("Billeter et al. §5.3 (a stream split per key bit), ") +
            (words == 1   ? "32-bit keys"
             : words == 2 ? "32-bit keys with 32-bit values interleaved"
                          : "32-bit keys with 96-bit values interleaved"),
        median_time_ns(s, 10, restore, once));
  }
  // Keys and values in separate arrays: CUB's own layout; §5.3 interleaves before and after its sort.
  std::vector<std::uint32_t> values(n), want_keys(n), want_values(n);
  std::iota(values.begin(), values.end(), std::uint32_t{0});
  for (std::size_t i = 0; i < n; ++i) {
    want_keys[i] = keys[order[i]];
    want_values[i] = values[order[i]];
  }
  device_buffer<std::uint32_t> k_in(n), v_in(n), k_out(n), v_out(n), pairs(2 * n), scratch(2 * n);
  k_in.upload(keys.data(), n, s);
  v_in.upload(values.data(), n, s);
  device_buffer<std::uint8_t> temp(std::max(cub_sort_keys_bytes(n), cub_sort_pairs_bytes(n)));
  const split_radix_sort sort2(n, 2);
  const std::function<void()> nothing = [] {};
  // Runs `once` into outputs filled with 0xff first (no earlier variant's result can pass for its
  // own), then compares them with std::stable_sort's.
  const auto check = [&](const std::string& who, const std::function<void()>& once, bool with_values) {
    WINNOW_CUDA_CHECK(cudaMemsetAsync(k_out.get(), 0xff, k_out.bytes(), s));
    WINNOW_CUDA_CHECK(cudaMemsetAsync(v_out.get(), 0xff, v_out.bytes(), s));
    once();
    const auto gk = k_out.download(n, s);
    const auto gv = with_values ? v_out.download(n, s) : std::vector<std::uint32_t>{};
    for (std::size_t i = 0; i < n; ++i)
      if (gk[i] != want_keys[i] || (with_values && gv[i] != want_values[i])) fail(who, i);
  };
  const std::function<void()> billeter_separate = [&] {
    billeter_interleave(k_in.get(), v_in.get(), reinterpret_cast<uint2*>(pairs.get()), n, s);
    sort2.run(pairs.get(), scratch.get(), 32, s);
    billeter_deinterleave(reinterpret_cast<const uint2*>(pairs.get()), k_out.get(), v_out.get(), n, s);
  };
  check("the split radix sort (separate arrays)", billeter_separate, true);
  add("billeter_pairs_separate",
      "Billeter et al. §5.3, 32-bit keys and 32-bit values in separate arrays (interleaved before "
      "the sort and split after it, both timed)",
      median_time_ns(s, 10, nothing, billeter_separate));
  const std::function<void()> cub_keys = [&] {
    cub_sort_keys(temp.get(), temp.bytes(), k_in.get(), k_out.get(), n, s);
  };
  check("cub::DeviceRadixSort::SortKeys", cub_keys, false);
  add("cub_keys", "cub::DeviceRadixSort::SortKeys, 32-bit keys", median_time_ns(s, 10, nothing, cub_keys));
  const std::function<void()> cub_pairs = [&] {
    cub_sort_pairs(temp.get(), temp.bytes(), k_in.get(), k_out.get(), v_in.get(), v_out.get(), n, s);
  };
  check("cub::DeviceRadixSort::SortPairs", cub_pairs, true);
  add("cub_pairs_separate", "cub::DeviceRadixSort::SortPairs, 32-bit keys and 32-bit values in separate arrays",
      median_time_ns(s, 10, nothing, cub_pairs));
}

} // namespace

std::vector<calibration> primitives() {
  const cudaStream_t s = context::get().stream();
  std::vector<calibration> out;
  for (const auto& [n, label] :
       {std::pair{std::size_t{32} << 20, std::string("32M")}, std::pair{std::size_t{220} << 20, std::string("220M")}}) {
    const bool out_of_place = label == "32M"; // the paper's 220M example is in place
    std::size_t free = 0, total = 0;
    WINNOW_CUDA_CHECK(cudaMemGetInfo(&free, &total));
    const std::size_t temp_bytes = cub_exclusive_sum_bytes(n), need = (out_of_place ? 2 : 1) * 4 * n + temp_bytes;
    if (need + (std::size_t{256} << 20) > free) {
      std::cerr << "winnow::cuda: the prefix sums of " << label << " values need " << (need >> 20) << " MiB, "
                << (free >> 20) << " MiB free: not measured\n";
      continue;
    }
    const std::vector<std::uint32_t> host = values_of(n);
    std::vector<std::uint32_t> want(n);
    std::exclusive_scan(host.begin(), host.end(), want.begin(), std::uint32_t{0});
    device_buffer<std::uint32_t> a(n), b(out_of_place ? n : 0);
    const value_prefix_sum billeter(n);
    device_buffer<std::uint8_t> temp(temp_bytes);
    for (const bool in_place : {false, true}) {
      if (!in_place && !out_of_place) continue;
      device_buffer<std::uint32_t>& result = in_place ? a : b;
      for (const std::string impl : {"billeter", "cub"}) {
        const std::function<void()> once = [&, impl] {
          if (impl == "billeter") billeter.run(a.get(), result.get(), s);
          else cub_exclusive_sum(temp.get(), temp.bytes(), a.get(), result.get(), n, s);
        };
        // The output filled with 0xff first: no earlier variant's result can pass for this one's.
        if (!in_place) WINNOW_CUDA_CHECK(cudaMemsetAsync(b.get(), 0xff, b.bytes(), s));
        a.upload(host.data(), n, s);
        once();
        const std::vector<std::uint32_t> got = result.download(n, s);
        if (const std::size_t i = first_difference(got, want); i < n)
          throw error("winnow::cuda: " + impl + "'s prefix sum of " + label + " values (" +
                      (in_place ? "in" : "out of") + " place) is " + std::to_string(got[i]) + " at element " +
                      std::to_string(i) + ", the CPU's " + std::to_string(want[i]));
        const std::string place = in_place ? "in" : "out";
        out.push_back({"prefix_sum_" + impl + "_" + label + "_" + place, mean_ns(10, once) / 1000.0, "µs",
                       std::string(impl == "billeter" ? "Billeter et al. §5.2 (count / scan / prefix over P warps)"
                                                      : "cub::DeviceScan::ExclusiveSum") +
                           ": exclusive prefix sum of " + label + " 32-bit values, " +
                           (in_place ? "in place" : "out of place") +
                           "; checked against the CPU, then the mean of 10 back to back"});
      }
    }
  }
  radix_sorts(out);
  return out;
}

} // namespace winnow::cuda
