#pragma once
#include <vector>

#include "winnow/registry.hpp"

namespace winnow::cuda {

/// The CIS 565 write-up's scans, each alone: the CPU's exclusive scan and the naive, work-efficient
/// and thrust GPU scans of global_scan.hpp over n = 2^k and 2^k − 3 (256 … 64M), at 128 threads a
/// block and, at 1M, 16M and 64M, at every block size 32 … 1024 (cis565_scans.cpp says how). Named
/// cis565_scan_{cpu|naive|efficient|thrust}_nN[_bB], in µs; `winnow calibrate --api cuda` adds them.
[[nodiscard]] std::vector<calibration> cis565_scans();

} // namespace winnow::cuda
