#!/usr/bin/env bash
# cuda/lookback's tile shapes against CUB on the GPU machine, in one device call: the shapes suite
# (every record verified), the 64- and 128-bit elements on every shape (verified), the 128-bit target
# case, the target suite on cuda, and ncu's view of the compaction kernel at 2^28 for the
# old default shape (256x4) and the new one (128x8m8).
# Usage: OUT=... bash docs/results/h200-2026-11-24/device/lookback.sh
set -uo pipefail
B=build-carry
. tools/device-env.sh
{
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader
  $B/winnow bench --suite cuda/bench/lookback_tiles.json --api cuda --out $OUT/tiles 2>$OUT/tiles-progress.log | tail -1
  $B/winnow bench --suite cuda/bench/targets_lookback.json --api cuda --out $OUT/targets 2>$OUT/targets-progress.log | tail -1
  for e in 64 128; do
    for t in 128x8m8 256x4m6 128x8 256x4 256x8 512x4 512x8; do
      for c in uniform:100003:p=0.3 alternating:4097 runs:1000003; do
        $B/winnow run --algo cuda/lookback --param element=$e --param tile=$t --case $c --reps 1 --warmup 0 >/dev/null 2>&1 \
          && echo "ok element=$e tile=$t $c" || echo "FAILED element=$e tile=$t $c (exit $?)"
      done
    done
  done
  for t in 128x8m8 256x4 512x8; do
    $B/winnow run --algo cuda/lookback --param element=128 --param tile=$t --case uniform:128M:p=0.5 | grep -i 'total\|verified\|wrong'
  done
  ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
  for t in 256x4 128x8m8; do
    echo "=== ncu cuda/lookback tile=$t uniform:256M:p=0.5"
    $ncu -k regex:compact_kernel --launch-skip 2 --launch-count 1 --section SpeedOfLight --section Occupancy \
      --section LaunchStats $B/winnow run --algo cuda/lookback --param tile=$t --case uniform:256M:p=0.5 --reps 1 --warmup 2 2>&1 \
      | grep -E 'Duration|DRAM Throughput|Memory Throughput|Achieved Occupancy|Theoretical Occupancy|Registers Per|Block Limit|Waves Per SM' 
  done
} 2>&1 | tee $OUT/log.txt
