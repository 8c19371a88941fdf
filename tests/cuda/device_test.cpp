// The cuda backend's own plumbing: the unavailable reason, device strings, WINNOW_CUDA_CHECK's
// message, the event timer, and the parameter checks of the algorithms.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <functional>
#include <map>
#include <numeric>
#include <thread>
#include <chrono>

#include "winnow/backends.hpp"
#include "winnow/corpus.hpp"
#include "need_device.hpp"
#include "winnow/cuda/device.hpp"
#include "winnow/error.hpp"
#include "winnow/harness.hpp"

// Private headers of winnow::cuda (tests may look inside).
#include "../../cuda/src/check.hpp"
#include "../../cuda/src/calibrate.hpp"
#include "../../cuda/src/cis565_scans.hpp"
#include "../../cuda/src/global_scan.hpp"
#include "../../cuda/src/event_timer.hpp"
#include "../../cuda/src/context.hpp"
#include "../../cuda/src/buffer.hpp"
#include "../../cuda/src/dispatch/copy.hpp"
#include "../../cuda/src/primitives.hpp"

namespace winnow::cuda {
namespace {

TEST(cuda_device, reason_says_no_device_or_nothing) {
  const auto reason = unavailable_reason();
  if (reason) {
    EXPECT_EQ(reason->rfind("no CUDA device", 0), 0u) << *reason;
    EXPECT_THROW((void)describe_device(), unavailable);
    // The registry lists the backend with the same reason, so every cuda test skips with it.
    EXPECT_EQ(all_backends().unavailable_reason("cuda"), reason);
  } else {
    const device_info d = describe_device();
    EXPECT_NE(d.device.find("sm_"), std::string::npos) << d.device;
    EXPECT_NE(d.driver.find("CUDA driver"), std::string::npos) << d.driver;
  }
}

TEST(cuda_check, message_names_file_call_and_error) {
  // Needs no device: the error path of the macro itself.
  try {
    WINNOW_CUDA_CHECK(cudaErrorInvalidValue);
    FAIL() << "WINNOW_CUDA_CHECK did not throw";
  } catch (const error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("device_test.cpp:"), std::string::npos) << what;
    EXPECT_NE(what.find("cudaErrorInvalidValue"), std::string::npos) << what;
  }
}

TEST(cuda_timer, phases_in_order_and_nonnegative) {
  WINNOW_NEED_DEVICE();
  cudaStream_t s = nullptr;
  ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
  {
    event_timer t(s);
    t.start();
    t.phase("a");
    t.phase("b");
    t.phase("a");
    t.stop();
    const auto phases = t.read();
    ASSERT_EQ(phases.size(), 3u);
    EXPECT_EQ(phases[0].name, "a");
    EXPECT_EQ(phases[1].name, "b");
    EXPECT_EQ(phases[2].name, "a");
    for (const auto& p : phases) EXPECT_GE(p.ns, 0.0);
  }
  cudaStreamDestroy(s);
}

/// A phase of two empty kernels with `gap` of the host's time between their launches, timed by `t`.
double phase_with_a_host_gap(event_timer& t, cudaStream_t s, std::chrono::microseconds gap) {
  t.start();
  t.phase("work");
  launch_empty(s);
  std::this_thread::sleep_for(gap);
  launch_empty(s);
  t.stop();
  return t.read().at(0).ns;
}

TEST(cuda_timer, a_held_run_times_the_device_not_the_hosts_gaps_between_launches) {
  WINNOW_NEED_DEVICE();
  if (every_launch_waits()) GTEST_SKIP() << "every launch waits for its kernel here (Debug, CUDA_LAUNCH_BLOCKING)";
  cudaStream_t s = nullptr;
  ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
  {
    // Unheld, the events see the device wait for the second launch: at least the 20 ms gap.
    event_timer plain(s);
    EXPECT_GE(phase_with_a_host_gap(plain, s, std::chrono::milliseconds(20)), 20e6);
    EXPECT_EQ(plain.clock(), "CUDA events");
    // Held, both kernels were queued before the device started: two empty kernels, some µs (the
    // bound leaves room for another process's kernels time-sliced in, as under ctest -j).
    event_timer held(s, true);
    for (int i = 0; i < 3; ++i) EXPECT_LT(phase_with_a_host_gap(held, s, std::chrono::milliseconds(20)), 10e6);
    EXPECT_TRUE(held.holding());
    EXPECT_EQ(held.clock(), "CUDA events, each run queued behind a hold");
  }
  cudaStreamDestroy(s);
}

TEST(cuda_timer, a_run_that_waits_on_the_host_inside_ends_the_hold_and_is_timed_unheld) {
  WINNOW_NEED_DEVICE();
  if (every_launch_waits()) GTEST_SKIP() << "every launch waits for its kernel here (Debug, CUDA_LAUNCH_BLOCKING)";
  cudaStream_t s = nullptr;
  ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
  {
    event_timer t(s, true);
    const auto waits_on_the_host = [&] {
      const auto w0 = std::chrono::steady_clock::now();
      t.start();
      t.phase("work");
      launch_empty(s);
      EXPECT_EQ(cudaStreamSynchronize(s), cudaSuccess); // as thrust's count read back: waits for the hold
      t.stop();
      EXPECT_GE(std::chrono::steady_clock::now() - w0, std::chrono::milliseconds(40)); // the hold's timeout
    };
    waits_on_the_host();
    EXPECT_TRUE(t.holding()); // once may be a kernel's first launch (lazy loading)
    waits_on_the_host();
    EXPECT_FALSE(t.holding()); // twice in a row: no more holds
    EXPECT_EQ(t.clock(), "CUDA events (runs not held: two holds in a row timed out)");
    // The next run is not held: it returns at once, and its gap is timed as without a hold.
    const auto w1 = std::chrono::steady_clock::now();
    EXPECT_GE(phase_with_a_host_gap(t, s, std::chrono::milliseconds(2)), 2e6);
    EXPECT_LT(std::chrono::steady_clock::now() - w1, std::chrono::milliseconds(40));
  }
  cudaStreamDestroy(s);
}

TEST(cuda_calibrate, the_fill_floors_holes_are_distinct_in_address_order_and_as_many_as_k_leaves) {
  // Host only: the list the floor writes through, drawn in chunks of 2^22 indices (three and a part here).
  const std::size_t n = (std::size_t{3} << 22) + 12345;
  for (const double k : {0.02, 0.1}) {
    const std::vector<std::uint32_t> h = sorted_holes(n, k);
    ASSERT_FALSE(h.empty());
    EXPECT_TRUE(std::adjacent_find(h.begin(), h.end(), std::greater_equal<>()) == h.end()) << "strictly ascending";
    EXPECT_LT(h.back(), n - static_cast<std::size_t>(k * static_cast<double>(n))) << "holes lie before the zone";
    const double expected = k * (1 - k) * static_cast<double>(n);
    EXPECT_NEAR(static_cast<double>(h.size()), expected, 0.01 * expected) << "k = " << k;
    EXPECT_EQ(sorted_holes(n, k), h) << "the same list every time";
  }
  EXPECT_THROW((void)sorted_holes(n, 0), error) << "no holes to write";
  EXPECT_THROW((void)sorted_holes((std::size_t{1} << 32) + 1, 0.02), error) << "indices past 32 bits";
}

TEST(cuda_calibrate, the_scatter_writes_each_value_at_its_place_and_nothing_else) {
  WINNOW_NEED_DEVICE();
  const cudaStream_t s = context::get().stream();
  const std::vector<std::uint32_t> at = {1, 5, 6, 30}, values = {11, 55, 66, 300};
  device_buffer<std::uint32_t> a(32), d_at(at.size()), d_values(values.size());
  WINNOW_CUDA_CHECK(cudaMemsetAsync(a.get(), 0, a.bytes(), s));
  d_at.upload(at.data(), at.size(), s);
  d_values.upload(values.data(), values.size(), s);
  launch_scatter(a.get(), d_at.get(), d_values.get(), at.size(), s);
  std::vector<std::uint32_t> expected(32, 0);
  for (std::size_t i = 0; i < at.size(); ++i) expected[at[i]] = values[i];
  EXPECT_EQ(a.download(32, s), expected);
}

TEST(cuda_calibrate, names_every_constant_and_the_roofline_is_the_best_copy) {
  WINNOW_NEED_DEVICE();
  std::map<std::string, double> got;
  for (const auto& c : calibrate()) {
    EXPECT_GT(c.value, 0.0) << c.name;
    EXPECT_FALSE(c.how.empty()) << c.name;
    got[c.name] = c.value;
  }
  double best = 0;
  for (const char* name : {"memcpy_bytes_per_ns_256M", "copy_bytes_per_ns_256M_b4", "copy_bytes_per_ns_256M_b8",
                           "copy_bytes_per_ns_256M_b16"}) {
    ASSERT_TRUE(got.count(name)) << name;
    best = std::max(best, got[name]);
  }
  EXPECT_EQ(got.at("roofline_bytes_per_ns"), best);
  for (const char* name : {"empty_pass_ns", "memcpy_bytes_per_ns_16M", "copy_bytes_per_ns_16M_b16",
                           "copy_bytes_per_ns_24M-100k_b4", "copy_bytes_per_ns_24M_b4", "copy_bytes_per_ns_24M+100k_b4",
                           "hole_writes_us_256M_k2", "hole_writes_us_256M_k10"})
    EXPECT_TRUE(got.count(name)) << name;
  // The registry hands the same step to `winnow calibrate --api cuda`.
  EXPECT_TRUE(all_backends().find_backend("cuda").calibrate);
  for (const char* name :
       {"prefix_sum_billeter_32M_out", "prefix_sum_cub_32M_out", "prefix_sum_billeter_32M_in", "prefix_sum_cub_32M_in",
        "prefix_sum_billeter_220M_in", "prefix_sum_cub_220M_in", "radix_sort_billeter_keys_4M",
        "radix_sort_billeter_pairs_interleaved_4M", "radix_sort_billeter_key96_interleaved_4M",
        "radix_sort_billeter_pairs_separate_4M", "radix_sort_cub_keys_4M", "radix_sort_cub_pairs_separate_4M"})
    EXPECT_TRUE(got.count(name)) << name;
}

// §5.3's radix sort against std::stable_sort by the same key bits: elements of 1, 2 and 4 words (the
// value words the element's index, so an unstable pass shows), an odd and an even number of bits (the
// odd one ends in the scratch buffer and is copied back), sizes around a warp step and its ranges;
// more than 32 bits is refused.
TEST(cuda_primitives, split_radix_sort_is_a_stable_sort_by_the_key_bits) {
  WINNOW_NEED_DEVICE();
  const cudaStream_t s = context::get().stream();
  for (const unsigned words : {1u, 2u, 4u})
    for (const unsigned bits : {5u, 32u})
      for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{33}, std::size_t{129}, std::size_t{70001},
                                  std::size_t{1} << 22}) { // the last gives each warp many steps
        std::vector<std::uint32_t> host(n * words);
        for (std::size_t i = 0; i < n; ++i) {
          host[i * words] = static_cast<std::uint32_t>(i * 2654435761u) ^ 0x9e3779b9u;
          for (unsigned w = 1; w < words; ++w) host[i * words + w] = static_cast<std::uint32_t>(i) + w;
        }
        const std::uint32_t mask = bits == 32 ? ~0u : (1u << bits) - 1;
        std::vector<std::size_t> order(n);
        std::iota(order.begin(), order.end(), std::size_t{0});
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
          return (host[a * words] & mask) < (host[b * words] & mask);
        });
        std::vector<std::uint32_t> want(n * words);
        for (std::size_t i = 0; i < n; ++i)
          for (unsigned w = 0; w < words; ++w) want[i * words + w] = host[order[i] * words + w];
        device_buffer<std::uint32_t> a(n * words), b(n * words);
        a.upload(host.data(), host.size(), s);
        split_radix_sort(n, words).run(a.get(), b.get(), bits, s);
        EXPECT_EQ(a.download(n * words, s), want) << n << " elements of " << words << " words, " << bits << " bits";
      }
  device_buffer<std::uint32_t> a(4), b(4);
  EXPECT_THROW(split_radix_sort(4, 1).run(a.get(), b.get(), 33, s), error);
  EXPECT_THROW(split_radix_sort(4, 3), error);
}

// Billeter's value prefix sum against the CPU's on sizes around its steps (128 values) and its
// P ranges, out of place and in place; values near 2^32 so that the sums wrap.
TEST(cuda_primitives, value_prefix_sum_matches_the_cpu) {
  WINNOW_NEED_DEVICE();
  const cudaStream_t s = context::get().stream();
  for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{3}, std::size_t{127}, std::size_t{128},
                              std::size_t{129}, std::size_t{4097}, std::size_t{1000003}, std::size_t{1} << 22}) {
    std::vector<std::uint32_t> v(n), want(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = 0xfffffff0u + static_cast<std::uint32_t>(i * 2654435761u % 97);
    std::exclusive_scan(v.begin(), v.end(), want.begin(), std::uint32_t{0});
    const value_prefix_sum sum(n);
    for (const bool in_place : {false, true}) {
      device_buffer<std::uint32_t> a(n), b(n);
      a.upload(v.data(), n, s);
      sum.run(a.get(), in_place ? a.get() : b.get(), s);
      EXPECT_EQ((in_place ? a : b).download(n, s), want) << "n = " << n << (in_place ? ", in place" : ", out of place");
    }
  }
}

// The three scans cuda/scan_* use and the calibrate step times alone, at every block size on sizes
// that end a block, a level or neither, on values whose sums wrap around 2^32; Hillis-Steele gives
// inclusive sums, the others exclusive ones. The launches and bytes one run reports are its own.
TEST(cuda_global_scan, every_kind_and_block_matches_the_cpu) {
  WINNOW_NEED_DEVICE();
  const cudaStream_t s = context::get().stream();
  for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{253}, std::size_t{256}, std::size_t{2049},
                              std::size_t{70001}, (std::size_t{1} << 20) - 3}) {
    std::vector<std::uint32_t> v(n), exclusive(n), inclusive(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = 0xfffffff0u + static_cast<std::uint32_t>(i * 2654435761u % 97);
    std::exclusive_scan(v.begin(), v.end(), exclusive.begin(), std::uint32_t{0});
    std::inclusive_scan(v.begin(), v.end(), inclusive.begin());
    for (const scan_kind kind : {scan_kind::hillis, scan_kind::blelloch, scan_kind::thrust})
      for (const unsigned block : {32u, 128u, 1024u}) {
        if (kind == scan_kind::thrust && block != 128) continue;
        global_scan scan(kind, n, block, s);
        device_buffer<std::uint32_t> a(n);
        for (int round = 0; round < 2; ++round) { // the calibrate step runs one object many times
          a.upload(v.data(), n, s);
          const std::uint32_t* sums = scan.run(a.get(), s);
          std::vector<std::uint32_t> got(n);
          // On the scan's stream: a plain cudaMemcpy would not wait for it (the context's stream does
          // not synchronize with the legacy default stream).
          if (n) {
            ASSERT_EQ(cudaMemcpyAsync(got.data(), sums, n * sizeof(std::uint32_t), cudaMemcpyDeviceToHost, s),
                      cudaSuccess);
          }
          ASSERT_EQ(cudaStreamSynchronize(s), cudaSuccess);
          EXPECT_EQ(got, scan.inclusive() ? inclusive : exclusive)
              << "kind " << static_cast<int>(kind) << ", block " << block << ", n = " << n << ", round " << round;
        }
        EXPECT_EQ(scan.inclusive(), kind == scan_kind::hillis);
        // One kernel per doubling offset; Blelloch: up each level of block totals and back down; one call.
        std::uint64_t levels = 0;
        for (std::size_t size = n; size > 2 * std::size_t{block}; size = (size + 2 * block - 1) / (2 * block)) ++levels;
        const std::uint64_t want = n == 0                        ? 0
                                   : kind == scan_kind::hillis   ? static_cast<std::uint64_t>(std::bit_width(n - 1))
                                   : kind == scan_kind::blelloch ? 2 * levels + 1
                                                                 : 1;
        EXPECT_EQ(scan.launches(), want) << "kind " << static_cast<int>(kind) << ", block " << block << ", n = " << n;
        // Hillis-Steele reads two and writes one value a pass; the others at least read and write each once.
        const traffic moved = scan.bytes();
        if (kind == scan_kind::hillis) {
          EXPECT_EQ(moved.read, 8 * n * want);
          EXPECT_EQ(moved.written, 4 * n * want);
        } else {
          EXPECT_GE(moved.read, std::uint64_t{4} * n);
          EXPECT_GE(moved.written, std::uint64_t{4} * n);
        }
      }
  }
  EXPECT_THROW(global_scan(scan_kind::blelloch, 16, 96, s), error);
  EXPECT_THROW(global_scan(scan_kind::hillis, 16, 0, s), error);
  EXPECT_THROW(global_scan(scan_kind::blelloch, 16, 0, s), error);
}

// The write-up's scans in the calibrate step: both size series, the block-size study at the sizes
// it names, every scan on the same n.
TEST(cuda_calibrate, cis565_scans_cover_the_write_ups_sizes_and_blocks) {
  WINNOW_NEED_DEVICE();
  std::map<std::string, double> got;
  for (const auto& c : cis565_scans()) {
    EXPECT_GT(c.value, 0.0) << c.name;
    EXPECT_EQ(c.unit, "µs") << c.name;
    got[c.name] = c.value;
  }
  for (const std::size_t n : {std::size_t{256}, std::size_t{253}, std::size_t{1} << 26, (std::size_t{1} << 26) - 3}) {
    const std::string at = "_n" + std::to_string(n);
    for (const std::string& name : {"cis565_scan_cpu" + at, "cis565_scan_thrust" + at,
                                    "cis565_scan_naive" + at + "_b128", "cis565_scan_efficient" + at + "_b128"})
      EXPECT_TRUE(got.count(name)) << name;
  }
  for (const unsigned block : {32u, 64u, 256u, 512u, 1024u})
    for (const char* scan : {"naive", "efficient"}) {
      EXPECT_TRUE(got.count(std::string("cis565_scan_") + scan + "_n1048576_b" + std::to_string(block)))
          << scan << block;
      EXPECT_FALSE(got.count(std::string("cis565_scan_") + scan + "_n256_b" + std::to_string(block))) << scan << block;
    }
  EXPECT_EQ(got.size(), 12u * 4 + 3 * 2 * 5);
}

TEST(cuda_params, billeter_rejects_odd_element_sizes) {
  WINNOW_NEED_DEVICE();
  const auto& e = all_backends().find("cuda/billeter");
  EXPECT_THROW((void)resolve_params(e.info, {{"element", "96"}}), usage_error);
  EXPECT_THROW((void)resolve_params(e.info, {{"output", "sideways"}}), usage_error);
}

TEST(cuda_cold, flushed_runs_verify) {
  WINNOW_NEED_DEVICE();
  const auto& reg = all_backends();
  prepared_case c = prepare_case(generate("uniform:100003:p=0.3"));
  for (const char* name : {"cuda/billeter", "cuda/cub_if", "cuda/ink"}) {
    const record r = run_case(reg, reg.find(name), {}, c, {1, 2, true});
    EXPECT_TRUE(r.verified) << name << ": " << r.mismatch;
    EXPECT_GT(r.launches, 0u) << name;
    EXPECT_GT(r.bytes_read, 0u) << name;
  }
}

TEST(cuda_billeter, chunked_matches_unchunked_on_every_element_size) {
  WINNOW_NEED_DEVICE();
  const auto& reg = all_backends();
  prepared_case c = prepare_case(generate("runs:1000003:valid=7:invalid=13"));
  for (const char* element : {"32", "64", "128"})
    for (const char* chunk : {"0", "64", "1024"})
      for (const char* output : {"staged", "buffered"}) {
        const record r = run_case(reg, reg.find("cuda/billeter"),
                                  {{"element", element}, {"chunk", chunk}, {"output", output}}, c, {0, 1, false});
        EXPECT_TRUE(r.verified) << "element=" << element << " chunk=" << chunk << " output=" << output << ": "
                                << r.mismatch;
      }
}

TEST(cuda_lookback, prefetching_up_to_the_last_partial_tile_matches_the_reference) {
  WINNOW_NEED_DEVICE();
  // 2.7M elements: 330 tiles of 32-bit elements, 1319 of 128-bit, the last one partial; prefetching 1
  // or 2 tiles per SM ahead (132-264 on an H100) reaches it from earlier tiles on every SM count up
  // to 160, so the prefetch's bound and its partial size run (the conformance cases have too few tiles).
  const auto& reg = all_backends();
  prepared_case c = prepare_case(generate("runs:2700007:valid=7:invalid=13"));
  for (const char* element : {"32", "64", "128"})
    for (const char* prefetch : {"0", "1", "2"})
      for (const char* place : {"out", "in"})
        for (const char* store : {"staged", "direct"}) {
          // The tile and pause given: each prefetch would be a kind of kernel of its own to probe.
          const record r = run_case(reg, reg.find("cuda/lookback"),
                                    {{"element", element},
                                     {"prefetch", prefetch},
                                     {"place", place},
                                     {"store", store},
                                     {"tile", "128x16m4"},
                                     {"pause", "2000"}},
                                    c, {0, 2, false});
          EXPECT_TRUE(r.verified) << "element=" << element << " prefetch=" << prefetch << " place=" << place
                                  << " store=" << store << ": " << r.mismatch;
        }
}

} // namespace
} // namespace winnow::cuda
