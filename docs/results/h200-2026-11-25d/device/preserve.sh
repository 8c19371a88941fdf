#!/usr/bin/env bash
# Issue 14: cuda/preserve (compaction from a preserve list) in one device call: the conformance
# suite's cuda/preserve cases, then the suite cuda/bench/preserve.json against Redzone and CUB.
# The suite file has moved since (c3fa93e: tools/winnow/suites/preserve.json, 2^27 and the CPU too); to run
# this script as it ran, restore the old one first: git show fb0f029:cuda/bench/preserve.json > cuda/bench/preserve.json
# Usage: OUT=... bash docs/results/h200-2026-11-25d/device/preserve.sh   (carry build-carry with
#        winnow and conformance_tests, .gl, .libs)
set -uo pipefail
B=$PWD/build-carry
. tools/device-env.sh
O=/tmp/preserve; mkdir -p $O
{
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader
  $B/winnow --version
  WINNOW_CONFORMANCE=full $B/conformance_tests --gtest_filter='*cuda_preserve*' 2>&1 | grep -E '^\[  (PASSED|FAILED|SKIPPED) |tests? ran' | head -20
  $B/winnow bench --suite cuda/bench/preserve.json --out $O/suite 2>$O/suite-progress.log
} 2>&1 | tee $O/log.txt
tar czf $OUT/results.tgz -C $O .
