#!/usr/bin/env bash
# Call 4: the scan test of a23b195 (global_scan: exact launches, block 0 refused, two runs an object),
# `winnow reproduce cis565` again with 6d17f8c (build-gz/winnow2.xz; suite cis565 at block 128 only),
# then the Moreira run of call 3 goes on (build-gz/winnow.xz, b09c060, the build it began with;
# build-carry/repro/moreira carried in from call 3's repro.tar.gz) until the call's budget is spent.
# Usage: OUT=... BUDGET=545 bash docs/results/h200-2026-11-30/device/call4.sh
set -uo pipefail
. tools/device-env.sh
export WINNOW_REPORT_DIR=$PWD/tools/report
budget=${BUDGET:-550}
build-carry/cuda_tests --gtest_filter='cuda_global_scan.*' > "$OUT/scan-tests.log" 2>&1
tail -3 "$OUT/scan-tests.log"
build-carry/winnow2 reproduce cis565 --out build-carry/cis565 > "$OUT/cis565.log" 2>&1
echo "reproduce cis565: exit $? at $SECONDS s" | tee -a "$OUT/cis565.log"
tar czf "$OUT/cis565.tgz" -C build-carry cis565
OUT=$OUT BUDGET=$((budget - SECONDS)) bash docs/results/h200-2026-11-24/device/reproduce.sh moreira
