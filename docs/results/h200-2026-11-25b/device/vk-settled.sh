#!/usr/bin/env bash
# GPU session 2026-11-25 (second), call 3: with the warm-up that goes on while the runs still get
# faster (common/src/harness.cpp), vk/lookback's shapes and states again at 2^24 and 2^28 (the
# fastest three shapes of call 1), then the target suites on vk and cuda, with nvidia-smi
# sampling the SM clock every 100 ms beside them.
# Usage: OUT=... bash docs/results/h200-2026-11-25b/device/vk-settled.sh
set -uo pipefail
B=build-carry
R=/tmp/results
mkdir -p $R
. tools/device-env.sh
stage() { echo "== $* ($(date +%T))"; }
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,clocks_throttle_reasons.active --format=csv,noheader -lms 100 > $R/clocks.csv &
SMI=$!
{
  stage "lookback_tiles (vk), three shapes, two states, uniform cases"
  $B/winnow bench --suite vulkan/bench/lookback_tiles.json --api vk --case 'uniform:*' \
    --param vk/lookback:tile=256x4,256x8,128x8 --param vk/lookback:state=packed,relaxed --out $R/tiles 2>$R/tiles-progress.log | tail -1
  stage "targets_lookback (vk, cuda)"
  $B/winnow bench --suite cuda/bench/targets_lookback.json --api vk --out $R/targets 2>$R/targets-progress.log | tail -1
  $B/winnow bench --suite cuda/bench/targets_lookback.json --api cuda --out $R/targets --name targets_lookback_cuda 2>>$R/targets-progress.log | tail -1
  stage "targets_lookback_wide (vk, cuda)"
  $B/winnow bench --suite cuda/bench/targets_lookback_wide.json --api vk --out $R/targets 2>>$R/targets-progress.log | tail -1
  $B/winnow bench --suite cuda/bench/targets_lookback_wide.json --api cuda --out $R/targets --name targets_lookback_wide_cuda 2>>$R/targets-progress.log | tail -1
  stage done
} 2>&1 | tee $OUT/log.txt
kill $SMI
tar -czf $OUT/results.tar.gz -C $R .
