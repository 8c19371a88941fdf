#!/usr/bin/env bash
# Runs at commit 02ceef4 (the experiment: the "b…" shapes and cuda/bench/lookback_bulk.json exist only there).
# GPU session 2026-11-25: cuda/lookback's persistent bulk-copy shapes (issue 13, part 2) in one device
# call: the whole conformance grid of cuda/lookback and cuda_tests, compute-sanitizer on a bulk shape
# (memcheck on every element size, racecheck and synccheck on 32-bit, in and out of place), the copy
# roofline, cuda/bench/lookback_bulk.json, and ncu's view of the kernel at 2^28 for the register
# default and the bulk shapes. From the repository root, with the build in build-carry/ and the .debs
# of tools/device-libs.sh in .gl/ and .libs/. Usage: OUT=... bash docs/results/h200-2026-11-25/device/experiment-bulk.sh [SHAPE...]
set -uo pipefail
B=build-carry
. tools/device-env.sh
SAN=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
SHAPES=${*:-b256x4s3}
stage() { echo "== $* ($(date +%T))"; }
{
  stage device
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv,noheader
  stage "conformance, whole grid: cuda/lookback; cuda_tests"
  WINNOW_CONFORMANCE=full timeout 240 $B/conformance_tests --gtest_brief=1 --gtest_filter='*cuda_lookback*' 2>&1 | tail -6
  timeout 60 $B/cuda_tests --gtest_brief=1 2>&1 | tail -3
  for t in $SHAPES; do
    stage "compute-sanitizer: cuda/lookback tile=$t"
    for tool in memcheck racecheck synccheck; do
      for e in 32 64 128; do
        for pl in out in; do
          [ $tool != memcheck ] && [ $e != 32 ] && continue
          echo "-- $tool element=$e place=$pl"
          timeout 90 $SAN --tool $tool --error-exitcode 9 $B/winnow run --algo cuda/lookback --case uniform:300007:p=0.3 \
            --param tile=$t --param element=$e --param place=$pl --reps 2 --warmup 0 --warmup-time 0 2>&1 \
            | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|result|rror"
        done
      done
    done
  done
  stage "copy roofline"
  $B/winnow_cuda_copy_bandwidth | tee $OUT/copy.json
  stage "suite lookback_bulk"
  $B/winnow bench --suite cuda/bench/lookback_bulk.json --api cuda --out $OUT/bulk 2>$OUT/bulk-progress.log | tail -2
  stage ncu
  for t in 128x8m8 $SHAPES; do
    echo "=== ncu cuda/lookback tile=$t uniform:256M:p=0.5"
    timeout 120 $NCU -k regex:compact --launch-skip 2 --launch-count 1 --section SpeedOfLight --section Occupancy \
      --section LaunchStats --section MemoryWorkloadAnalysis $B/winnow run --algo cuda/lookback --param tile=$t \
      --case uniform:256M:p=0.5 --reps 1 --warmup 2 --warmup-time 0 2>&1 \
      | grep -E 'Duration|DRAM Throughput|Memory Throughput|L2 Hit|Achieved Occupancy|Theoretical Occupancy|Registers Per|Block Limit|Grid Size|Shared Memory Config'
  done
  stage done
} 2>&1 | tee $OUT/log.txt
