#!/usr/bin/env bash
# Issue 13 part 3: cuda/redzone2 order=bitmap (R sorted through buckets and shared-memory bitmaps,
# holes paired with the red zone's kept items in address order) in one device call: Redzone's own
# tests, the conformance suite's whole cuda/redzone2 grid, hand-picked cases for every order, the
# suite cuda/bench/redzone_order.json, and ncu's view of the bitmap order's kernels at 2^28.
# Usage: OUT=... [NCU=0] bash docs/results/h200-2026-11-25d/device/redzone-bitmap.sh
#        (carry build-carry with winnow, conformance_tests, cuda_tests; .gl, .libs)
set -uo pipefail
B=$PWD/build-carry
. tools/device-env.sh
O=/tmp/bitmap; mkdir -p $O
{
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader
  $B/winnow --version
  $B/cuda_tests --gtest_filter='cuda_redzone.*' 2>&1 | tail -3
  WINNOW_CONFORMANCE=full $B/conformance_tests --gtest_filter='*cuda_redzone2*' 2>&1 | grep -E '^\[  (PASSED|FAILED|SKIPPED) |tests? ran' | head -40
  for order in bitmap sort; do
    for c in removal:100003:k=0 removal:100003:k=0.02 removal:100003:k=0.4:r=0 removal:100003:k=0.5:r=1 \
             removal:100003:k=0.3:r=0.5 removal:1000:k=0.001 removal:1000:k=0.999 removal:1000:k=1 \
             removal:16M:k=0.5:r=0 removal:16M:k=0.02:r=1 removal:33554467:k=0.3 uniform:100003:p=0.3 all:1000 none:1000; do
      $B/winnow run --algo cuda/redzone2 --param order=$order --case $c --reps 1 --warmup 0 --warmup-time 0 >/dev/null 2>&1 \
        && echo "ok order=$order $c" || echo "FAILED order=$order $c (exit $?)"
    done
  done
  $B/winnow bench --suite cuda/bench/redzone_order.json --out $O/suite 2>$O/suite-progress.log
  ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
  [ "${NCU:-1}" = 0 ] || for k in 0.02 0.1; do
    echo "=== ncu order=bitmap removal:256M:k=$k (the second run's kernels)"
    $ncu -k regex:'count_kernel|scatter_kernel|sort_kernel|fill_kernel' --launch-skip 4 --launch-count 4 \
      --section SpeedOfLight --section MemoryWorkloadAnalysis \
      $B/winnow run --algo cuda/redzone2 --param order=bitmap --case removal:256M:k=$k --reps 2 --warmup 0 --warmup-time 0 2>&1 \
      | grep -E '^  winnow::|Duration|DRAM Throughput|L2 Hit Rate' | cut -c1-90
  done
} 2>&1 | tee $O/log.txt
tar czf $OUT/results.tgz -C $O .
