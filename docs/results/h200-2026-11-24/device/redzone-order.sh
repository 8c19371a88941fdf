#!/usr/bin/env bash
# Issue 13 part 3 in one device call: cuda/redzone2's ordered fill (order=top8, top16, sort, auto) against
# the paper's unordered fill and CUB. Every order on the conformance suite's removal cases (each run
# verified), the suite cuda/bench/redzone_order.json, and ncu's view of the fill kernel at 2^28 for
# k = 2 % and 10 %, unordered and ordered.
# Usage: OUT=... [NCU=0] bash docs/results/h200-2026-11-24/device/redzone-order.sh   (carry build-carry, .gl, .libs)
# NCU=0 leaves out the profiles.
set -uo pipefail
B=$PWD/build-carry
. tools/device-env.sh
O=/tmp/order; mkdir -p $O
{
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader
  $B/winnow --version
  for order in off top8 top16 sort auto; do
    for c in removal:100003:k=0 removal:100003:k=0.02 removal:100003:k=0.4:r=0 removal:100003:k=0.5:r=1 \
             removal:100003:k=0.3:r=0.5 removal:1000:k=0.001 removal:1000:k=0.999 removal:1000:k=1 \
             removal:16M:k=0.5:r=0 removal:16M:k=0.02:r=1 uniform:100003:p=0.3 all:1000 none:1000; do
      $B/winnow run --algo cuda/redzone2 --param order=$order --case $c --reps 1 --warmup 0 --warmup-time 0 >/dev/null 2>&1 \
        && echo "ok order=$order $c" || echo "FAILED order=$order $c (exit $?)"
    done
  done
  $B/winnow bench --suite cuda/bench/redzone_order.json --out $O/suite 2>$O/suite-progress.log
  ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
  [ "${NCU:-1}" = 0 ] || for k in 0.02 0.1; do
    for order in off top8 sort; do
      echo "=== ncu fill_kernel order=$order removal:256M:k=$k"
      $ncu -k regex:fill_kernel --launch-skip 1 --launch-count 1 --section SpeedOfLight --section MemoryWorkloadAnalysis \
        $B/winnow run --algo cuda/redzone2 --param order=$order --case removal:256M:k=$k --reps 2 --warmup 0 --warmup-time 0 2>&1 \
        | grep -E 'Duration|DRAM Throughput|Memory Throughput|L2 Hit Rate|Mem Busy|Max Bandwidth'
    done
  done
} 2>&1 | tee $O/log.txt
tar czf $OUT/results.tgz -C $O .
