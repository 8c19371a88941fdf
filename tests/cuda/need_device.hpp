#pragma once
// The cuda tests skip, with the reason, where there is no CUDA device (CI): WINNOW_NEED_DEVICE().
#include <gtest/gtest.h>

#include "winnow/cuda/device.hpp"

#define WINNOW_NEED_DEVICE()                                                                                           \
  do {                                                                                                                 \
    if (auto reason = ::winnow::cuda::unavailable_reason()) GTEST_SKIP() << *reason;                                   \
  } while (0)
