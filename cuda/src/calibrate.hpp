#pragma once
#include <vector>

#include "winnow/registry.hpp"

namespace winnow::cuda {

/// `winnow calibrate --api cuda`: the device's copy roofline and the constants Billeter et al.'s
/// Tables 1-2 report (calibrate.cpp says what each is).
[[nodiscard]] std::vector<calibration> calibrate();

} // namespace winnow::cuda
