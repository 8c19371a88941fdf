#pragma once
#include <vector>

#include "winnow/registry.hpp"

namespace winnow::cuda {

/// `winnow calibrate --api cuda`: the device's copy roofline, the constants Billeter et al.'s
/// Tables 1-2 report, their Table 4's prefix sums and Table 5's radix sorts, the CIS 565 write-up's
/// scans (calibrate.cpp, primitives.cpp and cis565_scans.cpp say what each is).
[[nodiscard]] std::vector<calibration> calibrate();

} // namespace winnow::cuda
