#include <dlfcn.h>
#include <gtest/gtest.h>

#include "winnow/device_clock.hpp"

#ifndef WINNOW_FAKE_NVML
#error "WINNOW_FAKE_NVML: the path of tests/common/fake_nvml.cpp's module (tests/CMakeLists.txt)"
#endif

namespace winnow {
namespace {

TEST(device_clock, identities_are_written_as_nvml_takes_them) {
  const unsigned char bytes[16] = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
                                   0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff};
  EXPECT_EQ(nvidia_uuid(bytes), "GPU-00112233-4455-6677-8899-aabbccddeeff");
  EXPECT_EQ(pci_bus_id(0, 0x17, 0, 0), "0000:17:00.0");
  EXPECT_EQ(pci_bus_id(1, 0xc1, 0x1f, 3), "0001:c1:1f.3");
}

TEST(device_clock, a_missing_library_is_not_available_with_the_reason) {
  const nvml_opened o =
      open_nvml_clock({"GPU-00112233-4455-6677-8899-aabbccddeeff", ""}, "libwinnow-no-such-nvml.so.1");
  EXPECT_FALSE(o.clock);
  EXPECT_TRUE(o.why.starts_with("winnow nvml: libwinnow-no-such-nvml.so.1")) << o.why;
}

TEST(device_clock, the_driver_library_here_is_absent_or_answers) {
  // The real name: on this machine (no NVIDIA driver) not available, with why; with the driver, the
  // UUID below is no device's. Either way an answer, never an exception or a crash.
  if (void* h = ::dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL)) {
    ::dlclose(h);
    const nvml_opened o = open_nvml_clock({"GPU-00000000-0000-0000-0000-000000000000", ""});
    EXPECT_FALSE(o.clock);
    EXPECT_TRUE(o.why.starts_with("winnow nvml: no NVML device by UUID")) << o.why;
    return;
  }
  const nvml_opened o = open_nvml_clock({"GPU-00112233-4455-6677-8899-aabbccddeeff", ""});
  EXPECT_FALSE(o.clock);
  EXPECT_TRUE(o.why.starts_with("winnow nvml: libnvidia-ml.so.1")) << o.why;
}

TEST(device_clock, a_library_without_nvml_names_what_it_lacks) {
  const nvml_opened o = open_nvml_clock({"GPU-00112233-4455-6677-8899-aabbccddeeff", ""}, "libm.so.6");
  EXPECT_FALSE(o.clock);
  EXPECT_TRUE(o.why.starts_with("winnow nvml: libm.so.6 lacks nvmlInit_v2, nvmlShutdown")) << o.why;
}

TEST(device_clock, no_identity_no_clock) {
  const nvml_opened o = open_nvml_clock({}, WINNOW_FAKE_NVML);
  EXPECT_FALSE(o.clock);
  EXPECT_EQ(o.why, "winnow nvml: the backend did not say which device it runs on");
}

TEST(device_clock, the_clock_is_read_through_nvml_by_uuid_or_pci_bus_id) {
  void* fake = ::dlopen(WINNOW_FAKE_NVML, RTLD_NOW | RTLD_LOCAL); // the same module open_nvml_clock loads
  ASSERT_TRUE(fake) << ::dlerror();
  const auto set_mhz = reinterpret_cast<void (*)(unsigned)>(::dlsym(fake, "fake_nvml_set_sm_mhz"));
  const auto initialized = reinterpret_cast<int (*)()>(::dlsym(fake, "fake_nvml_initialized"));
  ASSERT_TRUE(set_mhz && initialized);
  {
    nvml_opened o = open_nvml_clock({"GPU-00112233-4455-6677-8899-aabbccddeeff", ""}, WINNOW_FAKE_NVML);
    ASSERT_TRUE(o.clock) << o.why;
    EXPECT_EQ(o.clock->max_sm_mhz(), 1980);
    set_mhz(615);
    EXPECT_EQ(o.clock->sm_mhz(), 615);
    set_mhz(1980);
    EXPECT_EQ(o.clock->sm_mhz(), 1980);
    // By PCI bus id when the UUID is not NVML's.
    nvml_opened p = open_nvml_clock({"GPU-ffffffff-0000-0000-0000-000000000000", "0000:17:00.0"}, WINNOW_FAKE_NVML);
    ASSERT_TRUE(p.clock) << p.why;
    EXPECT_EQ(p.clock->sm_mhz(), 1980);
    EXPECT_EQ(initialized(), 2);
  }
  EXPECT_EQ(initialized(), 0) << "nvmlShutdown with the last clock";
  const nvml_opened none =
      open_nvml_clock({"GPU-ffffffff-0000-0000-0000-000000000000", "0000:99:00.0"}, WINNOW_FAKE_NVML);
  EXPECT_FALSE(none.clock);
  EXPECT_EQ(none.why, "winnow nvml: no NVML device by UUID GPU-ffffffff-0000-0000-0000-000000000000: Not Found (6); "
                      "PCI bus id 0000:99:00.0: Not Found (6)");
  ::dlclose(fake);
}

} // namespace
} // namespace winnow
