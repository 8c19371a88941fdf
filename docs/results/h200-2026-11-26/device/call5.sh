#!/usr/bin/env bash
# Call 5 (2026-11-26): Billeter's value prefix sum (§5.2, Table 4): cuda_tests (edge sizes against
# the CPU, calibrate's names), compute-sanitizer on the test, then `winnow calibrate --api cuda`.
set -uo pipefail
B=build-carry; mkdir -p $B; for f in build-gz/*.gz; do gunzip -c $f > $B/$(basename $f .gz); chmod +x $B/$(basename $f .gz); done
. tools/device-env.sh
R=/tmp/results5; mkdir -p $R
stage() { echo "== $* ($(date +%T))"; }
{
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
  stage "cuda_tests"
  timeout 300 $B/cuda_tests --gtest_brief=1 2>&1 | tail -4
  stage "compute-sanitizer memcheck on the prefix-sum test"
  timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 $B/cuda_tests --gtest_brief=1 --gtest_filter='cuda_primitives.*' 2>&1 | tail -3
  stage "winnow calibrate --api cuda"
  timeout 200 $B/winnow calibrate --api cuda --out $R/calibrate.jsonl 2>&1 | tail -12
  stage done
} 2>&1 | tee $R/log.txt
tar czf $OUT/results5.tgz -C /tmp results5
