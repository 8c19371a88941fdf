// The Vulkan engine's pieces on whatever the loader finds here (lavapipe in CI), validation on.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <numeric>

#include "winnow/error.hpp"
#include "winnow/vulkan/buffer.hpp"
#include "winnow/vulkan/check.hpp"
#include "winnow/vulkan/device.hpp"
#include "winnow/vulkan/pipeline.hpp"
#include "winnow/settings.hpp"
#include "winnow/shader_era/args.hpp"
#include "winnow/vulkan/sequence.hpp"

// Private header of winnow::vk (tests may look inside).
#include "../../vulkan/src/calibrate.hpp"
#include "../../vulkan/src/heat.hpp"

namespace winnow::vk {
namespace {

#define WINNOW_REQUIRE_VK()                                                                                            \
  if (auto reason = unavailable_reason()) GTEST_SKIP() << *reason

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) { return e.what(); }
  return "(no exception)";
}

device_candidate candidate(std::string name, VkPhysicalDeviceType type) {
  return {std::move(name), type, VK_API_VERSION_1_3, true, true, true};
}

TEST(vk_device_choice, a_discrete_gpu_comes_first_and_every_device_gets_a_reason) {
  const auto cpu = candidate("llvmpipe", VK_PHYSICAL_DEVICE_TYPE_CPU);
  const auto gpu = candidate("NVIDIA H200", VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU);
  const device_choice c = choose_device({cpu, gpu});
  ASSERT_EQ(c.chosen, 1u);
  ASSERT_EQ(c.reasons.size(), 2u);
  EXPECT_EQ(c.reasons[0], "llvmpipe (CPU, Vulkan 1.3.0): not taken — a discrete GPU (NVIDIA H200) is preferred");
  EXPECT_EQ(c.reasons[1], "NVIDIA H200 (discrete GPU, Vulkan 1.3.0): taken — a discrete GPU with a compute queue");
}

TEST(vk_device_choice, devices_that_lack_a_requirement_are_not_taken_and_say_why) {
  auto old = candidate("old", VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU);
  old.api_version = VK_API_VERSION_1_1;
  auto graphics_only = candidate("graphics only", VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU);
  graphics_only.compute_queue = false;
  auto no_clock = candidate("no clock", VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU);
  no_clock.timestamps = false;
  auto no_pointers = candidate("no pointers", VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU);
  no_pointers.buffer_device_address = false;
  const auto cpu = candidate("llvmpipe", VK_PHYSICAL_DEVICE_TYPE_CPU);
  const device_choice c = choose_device({old, graphics_only, no_clock, no_pointers, cpu});
  ASSERT_EQ(c.chosen, 4u);
  EXPECT_EQ(c.reasons[0], "old (discrete GPU, Vulkan 1.1.0): not taken — Vulkan 1.1.0 < 1.2");
  EXPECT_EQ(c.reasons[1],
            "graphics only (discrete GPU, Vulkan 1.3.0): not taken — no queue family with VK_QUEUE_COMPUTE_BIT");
  EXPECT_EQ(c.reasons[2], "no clock (discrete GPU, Vulkan 1.3.0): not taken — its compute queue has no timestamps "
                          "(timestampValidBits = 0)");
  EXPECT_EQ(c.reasons[3], "no pointers (discrete GPU, Vulkan 1.3.0): not taken — no bufferDeviceAddress (the passes "
                          "address buffers by pointer)");
  EXPECT_EQ(c.reasons[4],
            "llvmpipe (CPU, Vulkan 1.3.0): taken — no discrete GPU qualifies; a device with a compute queue");
  EXPECT_FALSE(choose_device({old}).chosen.has_value());
  EXPECT_FALSE(choose_device({}).chosen.has_value());
}

TEST(vk_device, is_created_with_validation_and_reports_its_choice) {
  WINNOW_REQUIRE_VK();
  device& d = device::get();
  EXPECT_EQ(d.validation(), debug_enabled()) << "tests run on debug contexts (WINNOW_DEBUG=1) unless told 0";
  ASSERT_TRUE(d.choice().chosen.has_value());
  const std::string& taken = d.choice().reasons.at(*d.choice().chosen);
  EXPECT_NE(taken.find(d.properties().name), std::string::npos) << taken;
  EXPECT_NE(taken.find(": taken — "), std::string::npos) << taken;
  EXPECT_EQ(d.properties().driver.rfind("Vulkan 1.", 0), 0u) << d.properties().driver;
  EXPECT_GT(d.properties().timestamp_valid_bits, 0u);
  EXPECT_GT(d.properties().timestamp_period, 0.0);
  EXPECT_GE(d.properties().subgroup_size, 1u);
  EXPECT_NO_THROW(d.check("clean"));
}

TEST(vk_engine, vk_check_names_the_call_and_the_result) {
  const std::string what = message_of([] { WINNOW_VK_CHECK(VK_ERROR_DEVICE_LOST); });
  EXPECT_NE(what.find("engine_test.cpp:"), std::string::npos) << what;
  EXPECT_NE(what.find(": VK_ERROR_DEVICE_LOST: "), std::string::npos) << what; // "…: call: what" ends with the name
  EXPECT_EQ(what.substr(what.size() - std::string("VK_ERROR_DEVICE_LOST").size()), "VK_ERROR_DEVICE_LOST") << what;
  EXPECT_EQ(to_string(VK_ERROR_OUT_OF_DEVICE_MEMORY), "VK_ERROR_OUT_OF_DEVICE_MEMORY");
  EXPECT_EQ(to_string(static_cast<VkResult>(-12345)), "VkResult(-12345)");
}

TEST(vk_engine, a_validation_message_fails_the_run_that_caused_it) {
  WINNOW_REQUIRE_VK();
  device& d = device::get();
  if (!d.validation()) GTEST_SKIP() << "WINNOW_DEBUG=0: no validation layer in this run";
  d.check("before");
  sequence s("invalid barrier");
  s.begin();
  // A colour-attachment access in a compute-only barrier: VUID-vkCmdPipelineBarrier-srcAccessMask.
  VkMemoryBarrier b{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  b.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  b.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
  vkCmdPipelineBarrier(s.cmd(), VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &b, 0,
                       nullptr, 0, nullptr);
  s.submit_and_wait();
  const std::string what = message_of([&] { d.check("winnow test run"); });
  EXPECT_EQ(what.rfind("winnow test run: ", 0), 0u) << what;
  EXPECT_NE(what.find("validation message(s): "), std::string::npos) << what;
  EXPECT_NE(what.find("srcAccessMask"), std::string::npos) << what;
  EXPECT_NO_THROW(d.check("cleared"));
}

TEST(vk_engine, a_fence_timeout_is_an_error_naming_the_sequence) {
  WINNOW_REQUIRE_VK();
  device& d = device::get();
  VkEvent event = VK_NULL_HANDLE;
  VkEventCreateInfo eci{VK_STRUCTURE_TYPE_EVENT_CREATE_INFO};
  WINNOW_VK_CHECK(vkCreateEvent(d.handle(), &eci, nullptr, &event));
  sequence s("waits for the host");
  s.begin();
  // The device waits for an event only the host sets: the fence cannot signal before vkSetEvent.
  vkCmdWaitEvents(s.cmd(), 1, &event, VK_PIPELINE_STAGE_HOST_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, nullptr, 0,
                  nullptr, 0, nullptr);
  s.submit();
  const std::string what = message_of([&] { s.wait(std::chrono::milliseconds(20)); });
  EXPECT_EQ(what, "winnow::vk::sequence: 'waits for the host' did not finish within 20 ms (fence timeout)");
  WINNOW_VK_CHECK(vkSetEvent(d.handle(), event));
  EXPECT_NO_THROW(s.wait());
  vkDestroyEvent(d.handle(), event, nullptr);
  EXPECT_NO_THROW(d.check("after the event"));
}

/// scan_hillis with offset ≥ segment and the identity map: a copy, one element per invocation.
const pipeline& copy_pipeline() { return pipeline::get({"scan_hillis", {256, 0}}); }
struct copy_args {
  VkDeviceAddress in[3], dst, trips;
  shader_era::io_args io;
  shader_era::scan_hillis_args args;
};
copy_args copy_of(const buffer& from, const buffer& to, std::uint32_t n) {
  copy_args a{{from.address(), 0, 0}, to.address(), 0, {}, {1, 1, 0}};
  a.io.extent = n;
  return a;
}

TEST(vk_engine, a_pass_writes_every_element_and_timestamps_are_monotonic_and_non_zero) {
  WINNOW_REQUIRE_VK();
  device& d = device::get();
  const std::uint32_t n = 1u << 20;
  std::vector<std::uint32_t> data(n);
  std::iota(data.begin(), data.end(), 1u);
  buffer in("in", 4ull * n), out("out", 4ull * n);
  in.upload(data);
  out.fill(0xdeadbeefu);
  const pipeline& copy = copy_pipeline();
  const copy_args a = copy_of(in, out, n);
  sequence s("copy", 8);
  timestamps t(s);
  s.begin();
  t.phase("first");
  s.dispatch(copy, a, n / 256);
  t.phase("second");
  s.dispatch(copy, a, n / 256);
  s.submit_and_wait();
  t.stop();
  d.check("copy");
  EXPECT_EQ(out.download(n), data);
  const auto phases = t.read();
  ASSERT_EQ(phases.size(), 2u);
  EXPECT_EQ(phases[0].name, "first");
  EXPECT_EQ(phases[1].name, "second");
  for (const auto& p : phases) EXPECT_GT(p.ns, 0.0) << p.name << ": a pass over 4 MiB takes time";
}

TEST(vk_engine, kick_ordered_runs_the_second_command_buffer_after_the_first_as_one_run) {
  WINNOW_REQUIRE_VK();
  device& d = device::get();
  const std::uint32_t n = 1u << 20;
  std::vector<std::uint32_t> data(n);
  std::iota(data.begin(), data.end(), 7u);
  buffer in("in", 4ull * n), mid("mid", 4ull * n), out("out", 4ull * n);
  in.upload(data);
  mid.fill(0u);
  out.fill(0u);
  const pipeline& copy = copy_pipeline();
  const copy_args first = copy_of(in, mid, n), second = copy_of(mid, out, n);
  sequence s("ordered", 8);
  timestamps t(s);
  for (int run = 0; run < 2; ++run) { // the semaphore is used again by the next run
    s.begin();
    t.phase("first");
    s.dispatch(copy, first, n / 256);
    // The two batches' order is also kept by the full barrier every command buffer opens with, so
    // the copies alone cannot tell a missing semaphore: the validation layer checks the submission
    // (and, on a GPU, shader_era.the_choice_pass_marks_what_the_cpu_predicts_fastest the predicate).
    s.kick_ordered();
    t.phase("second");
    s.dispatch(copy, second, n / 256);
    if (run == 1) {
      EXPECT_EQ(message_of([&] { s.kick_ordered(); }),
                "winnow::vk::sequence: 'ordered': two kick_ordered in one submission");
    }
    s.submit_and_wait();
    t.stop();
    d.check("ordered copies");
    EXPECT_EQ(out.download(n), data) << "run " << run;
    const auto phases = t.read();
    ASSERT_EQ(phases.size(), 2u);
    EXPECT_EQ(phases[1].name, "second");
    out.fill(0u);
  }
}

TEST(vk_engine, timestamps_outside_a_recording_and_a_run_left_open_are_errors) {
  WINNOW_REQUIRE_VK();
  sequence s("idle", 4);
  timestamps t(s);
  EXPECT_EQ(message_of([&] { t.phase("x"); }), "winnow::vk::sequence: 'idle': timestamp 'x' outside a recording");
  s.begin();
  EXPECT_EQ(message_of([&] { t.stop(); }),
            "winnow::vk::timestamps: 'idle' is still recording after run() (it must submit and wait)");
  s.submit_and_wait();
}

TEST(vk_engine, buffers_round_trip_and_an_impossible_allocation_names_its_size) {
  WINNOW_REQUIRE_VK();
  buffer b("round trip", 40);
  const std::vector<std::uint32_t> v{1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  b.upload(v);
  EXPECT_EQ(b.download(10), v);
  EXPECT_EQ(b.download(3, 7), (std::vector<std::uint32_t>{8, 9, 10}));
  EXPECT_THROW((void)b.download(11), error);
  const std::uint64_t huge = std::uint64_t{1} << 62;
  const std::string what = message_of([&] { buffer too_big("too big", huge); });
  EXPECT_EQ(
      what.rfind("winnow::vk::buffer: out of device memory: 'too big' asked for " + std::to_string(huge) + " bytes", 0),
      0u)
      << what;
  EXPECT_THROW(buffer("too big", huge), unavailable);
  EXPECT_NO_THROW(device::get().check("after the failed allocation"));
}

// Copies of 16 MiB and more go through two 32 MiB chunks in turn (vulkan/src/staging.cpp): 80 MiB and a
// word, 3 words into the buffer, crosses every chunk boundary, ends in a short chunk, and leaves the
// words around it as they were.
TEST(vk_engine, a_large_copy_goes_through_the_staging_chunks_whole_and_in_place) {
  WINNOW_REQUIRE_VK();
  const std::uint64_t words = (std::uint64_t{80} << 20) / 4 + 1, before = 3, after = 2;
  std::vector<std::uint32_t> host(words);
  for (std::uint64_t i = 0; i < words; ++i) host[i] = static_cast<std::uint32_t>(i * 2654435761u);
  buffer b("staged", 4 * (before + words + after));
  b.fill(0xABABABABu);
  b.upload(host, before);
  const std::vector<std::uint32_t> all = b.download(before + words + after);
  ASSERT_EQ(all.size(), before + words + after);
  for (std::uint64_t i = 0; i < before; ++i) EXPECT_EQ(all[i], 0xABABABABu) << "word " << i << " before the upload";
  for (std::uint64_t i = 0; i < after; ++i) EXPECT_EQ(all[before + words + i], 0xABABABABu) << "word after " << i;
  EXPECT_TRUE(std::equal(host.begin(), host.end(), all.begin() + before)) << "the uploaded words, read back whole";
  // A large part from the middle, not aligned to a chunk.
  const std::uint64_t first = 1000, count = (std::uint64_t{40} << 20) / 4 + 7;
  const std::vector<std::uint32_t> part = b.download(count, before + first);
  EXPECT_TRUE(std::equal(part.begin(), part.end(), host.begin() + first)) << "words " << first << " on";
  EXPECT_NO_THROW(device::get().check("after the staged copies"));
}

TEST(vk_engine, an_unknown_shader_is_an_error_naming_it) {
  WINNOW_REQUIRE_VK();
  EXPECT_EQ(message_of([] {
              (void)pipeline::get({"no_such_shader", {64}});
            }),
            "winnow::vk::pipeline: no embedded shader 'no_such_shader'");
}

// The roofline is the best copy at the largest size measured, never a smaller one: a copy that fits
// in L2 (4M in two buffers is 32 MiB; an H100 has 50) runs faster than DRAM allows.
TEST(vk_calibrate, the_roofline_is_the_best_copy_at_the_largest_size) {
  WINNOW_REQUIRE_VK();
  std::map<std::uint64_t, double> best_by_size; // elements → best copy
  double roofline = 0;
  for (const auto& c : calibrate()) {
    EXPECT_GT(c.value, 0.0) << c.name;
    if (c.name == "roofline_bytes_per_ns") roofline = c.value;
    const std::string prefix = "copy_bytes_per_ns_";
    if (c.name.rfind(prefix, 0) != 0 || c.name.find("_l") == std::string::npos) continue; // not a wide copy
    const std::string size = c.name.substr(prefix.size(), c.name.find('_', prefix.size()) - prefix.size());
    ASSERT_EQ(size.back(), 'M') << c.name;
    const std::uint64_t n = std::stoull(size.substr(0, size.size() - 1)) << 20;
    best_by_size[n] = std::max(best_by_size[n], c.value);
  }
  // A GPU sweeps two sizes at least; a software device one (vulkan/src/calibrate.cpp says why).
  const bool software = device::get().properties().type == VK_PHYSICAL_DEVICE_TYPE_CPU;
  ASSERT_GE(best_by_size.size(), software ? 1u : 2u) << "the copy at two sizes at least on a GPU";
  EXPECT_EQ(roofline, best_by_size.rbegin()->second);
}

// The harness heats an NVIDIA GPU with it before a record of short runs (run_options::heat): it must
// run clean under the validation layer and keep the device busy most of the time it takes, by the
// device's own timestamps.
TEST(vk_heat, keeps_the_device_busy_most_of_the_time_it_takes) {
  WINNOW_REQUIRE_VK();
  const auto t0 = std::chrono::steady_clock::now();
  const double busy = heat(1e6);
  const double wall = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_GE(wall, 1e6);
  EXPECT_GT(busy, 0.5 * wall) << "device time " << busy << " ns of " << wall << " ns";
  EXPECT_LE(busy, wall);
  EXPECT_NO_THROW(device::get().check("after heat")) << "the validation layer said nothing";
}

} // namespace
} // namespace winnow::vk
