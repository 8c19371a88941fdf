#!/usr/bin/env bash
# Call 7 (2026-11-26, H100): the reviewed primitives (cuda_tests, calibrate), then `winnow reproduce redzone` from the start.
set -uo pipefail
B=build-carry; mkdir -p $B; for f in build-gz/*.gz; do gunzip -c $f > $B/$(basename $f .gz); chmod +x $B/$(basename $f .gz); done
. tools/device-env.sh
mkdir -p $OUT/r7
{
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
  timeout 200 $B/cuda_tests --gtest_brief=1 2>&1 | tail -3
  timeout 120 $B/winnow calibrate --api cuda --out $OUT/r7/calibrate.jsonl 2>&1 | grep -E "prefix|radix|roofline"
} 2>&1 | tee $OUT/r7/log.txt
bash exp/redzone.sh 400 2>&1 | tail -8
