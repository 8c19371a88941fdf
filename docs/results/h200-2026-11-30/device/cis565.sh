#!/usr/bin/env bash
# CIS 565 on the GPU machine: the GPU tests of the scans (global_scan, the calibrate step's scans)
# and the conformance of the three scan compactions, then `winnow reproduce cis565` whole (cuda's
# calibrate step, which times the scans alone, and suite cis565 on cpu and cuda) into $OUT/cis565.
# Carry build-gz (winnow, cuda_tests and conformance_tests, .xz), .gl and .libs.
# Usage: OUT=... bash docs/results/h200-2026-11-30/device/cis565.sh
set -uo pipefail
. tools/device-env.sh
export WINNOW_REPORT_DIR=$PWD/tools/report
{
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader
  build-carry/winnow --version
  build-carry/cuda_tests --gtest_filter='cuda_global_scan.*:cuda_calibrate.*:cuda_primitives.*' 2>&1 | grep -v '^\[ *\(RUN\|OK\) '
  build-carry/conformance_tests --gtest_filter='*cuda_scan_*' 2>&1 | tail -4
} > "$OUT/tests.log" 2>&1
start=$SECONDS
build-carry/winnow reproduce cis565 --out "$OUT/cis565" > "$OUT/cis565.log" 2>&1
echo "reproduce cis565: exit $? in $((SECONDS - start)) s" >> "$OUT/cis565.log"
tail -3 "$OUT/cis565.log"
tail -14 "$OUT/tests.log"
tar czf "$OUT/cis565.tgz" -C "$OUT" cis565 && rm -rf "$OUT/cis565"
