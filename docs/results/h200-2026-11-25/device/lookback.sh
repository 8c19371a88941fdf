#!/usr/bin/env bash
# GPU session 2026-11-25, the final call for cuda/lookback (issue 13, part 2): the whole conformance
# grid of cuda/lookback and cuda_tests, compute-sanitizer on the default shape (memcheck on every
# element size, racecheck and synccheck on 32-bit, in and out of place), the copy roofline, the
# issue's target suites on cuda, the tiles suite (every shape, both look-back waits), and ncu's view
# of the kernel at 2^28. From the repository root, with the build in build-carry/ and the .debs of
# tools/device-libs.sh in .gl/ and .libs/. Usage: OUT=... bash docs/results/h200-2026-11-25/device/lookback.sh
set -uo pipefail
B=build-carry
R=/tmp/results
mkdir -p $R
. tools/device-env.sh
SAN=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
stage() { echo "== $* ($(date +%T))"; }
{
  stage device
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv,noheader
  stage "conformance, whole grid: cuda/lookback; cuda_tests"
  WINNOW_CONFORMANCE=full timeout 240 $B/conformance_tests --gtest_brief=1 --gtest_filter='*cuda_lookback*' 2>&1 | tail -2
  timeout 60 $B/cuda_tests --gtest_brief=1 2>&1 | tail -2
  stage "compute-sanitizer: cuda/lookback (default tile and wait)"
  for tool in memcheck racecheck synccheck; do
    for e in 32 64 128; do
      for pl in out in; do
        [ $tool != memcheck ] && [ $e != 32 ] && continue
        echo "-- $tool element=$e place=$pl"
        timeout 90 $SAN --tool $tool --error-exitcode 9 $B/winnow run --algo cuda/lookback --case uniform:300007:p=0.3 \
          --param element=$e --param place=$pl --reps 2 --warmup 0 --warmup-time 0 2>&1 \
          | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|result|rror"
      done
    done
  done
  stage "copy roofline"
  $B/winnow_cuda_copy_bandwidth | tee $R/copy.json
  stage "targets_lookback, targets_lookback_wide (cuda)"
  $B/winnow bench --suite cuda/bench/targets_lookback.json --api cuda --out $R/targets 2>$R/targets-progress.log | tail -1
  $B/winnow bench --suite cuda/bench/targets_lookback_wide.json --api cuda --out $R/targets 2>>$R/targets-progress.log | tail -1
  stage "lookback_tiles"
  $B/winnow bench --suite cuda/bench/lookback_tiles.json --api cuda --out $R/tiles 2>$R/tiles-progress.log | tail -1
  stage ncu
  for tw in 128x16m3:sleep 128x16m3:spin 128x8m8:spin; do
    echo "=== ncu cuda/lookback tile=${tw%:*} wait=${tw#*:} uniform:256M:p=0.5"
    timeout 100 $NCU -k regex:compact --launch-skip 2 --launch-count 1 --section SpeedOfLight --section Occupancy \
      --section LaunchStats --section MemoryWorkloadAnalysis $B/winnow run --algo cuda/lookback --param tile=${tw%:*} \
      --param wait=${tw#*:} --case uniform:256M:p=0.5 --reps 1 --warmup 2 --warmup-time 0 2>&1 \
      | grep -E 'Duration|DRAM Throughput|Memory Throughput|L2 Hit|Achieved Occupancy|Theoretical Occupancy|Registers Per|Block Limit (Reg|Sh)|Grid Size'
  done
  stage done
} 2>&1 | tee $OUT/log.txt
tar -czf $OUT/results.tar.gz -C $R .
