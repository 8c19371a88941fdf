#!/usr/bin/env bash
# Call 1: the GPU tests of the CUDA changes that had not run on a GPU (f808bc7: Blelloch's levels as
# fixed pointers, the CIS 565 check's sums once per n; 85fbb0f: splitmix64 test data; the new §4.6
# O(j + k) test), built at this folder's commit (build-gz/cuda_tests.xz, conformance_tests.xz); then
# the Moreira run begun on 2026-11-30 goes on with the build it began with (build-gz/winnow.xz,
# b09c060; its folder unpacked into build-carry/repro/moreira before this script) until the budget
# is spent.
# Usage: OUT=... BUDGET=545 bash docs/results/h200-2026-11-30b/device/call1.sh
set -uo pipefail
. tools/device-env.sh
export WINNOW_REPORT_DIR=$PWD/tools/report
budget=${BUDGET:-545}
timeout 150 build-carry/cuda_tests --gtest_filter='cuda_global_scan.*:cuda_calibrate.*:cuda_redzone.*:cuda_device.*' \
  > "$OUT/cuda-tests.log" 2>&1
echo "cuda_tests: exit $? at $SECONDS s" | tee -a "$OUT/cuda-tests.log"
tail -4 "$OUT/cuda-tests.log"
timeout 120 build-carry/conformance_tests --gtest_filter='*cuda_scan_*:*cuda_redzone*' > "$OUT/conformance.log" 2>&1
echo "conformance_tests: exit $? at $SECONDS s" | tee -a "$OUT/conformance.log"
tail -4 "$OUT/conformance.log"
OUT=$OUT BUDGET=$((budget - SECONDS)) bash docs/results/h200-2026-11-24/device/reproduce.sh moreira
