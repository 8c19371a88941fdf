#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "winnow/registry.hpp"

namespace winnow::cuda {

/// `winnow calibrate --api cuda`: the device's copy roofline, the constants Billeter et al.'s
/// Tables 1-2 report, their Table 4's prefix sums and Table 5's radix sorts, the CIS 565 write-up's
/// scans (calibrate.cpp, primitives.cpp and cis565_scans.cpp say what each is).
[[nodiscard]] std::vector<calibration> calibrate();

/// The holes a removal list of `fraction` · n random indices leaves in [0, z), z = n − that many, in
/// address order (the fill's floor that calibrate measures): every index a hole with probability
/// `fraction`, drawn as geometric gaps from MT19937-64, a fixed seed per chunk of 2^22 indices.
[[nodiscard]] std::vector<std::uint32_t> sorted_holes(std::size_t n, double fraction);

} // namespace winnow::cuda
