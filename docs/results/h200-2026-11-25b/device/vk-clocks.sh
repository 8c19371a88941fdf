#!/usr/bin/env bash
# GPU session 2026-11-25 (second), call 2: is vk/lookback's 3-4× spread at 2^28 the algorithm or the
# clocks? The same records as call 1 at 256M / 50 %, several times over, with nvidia-smi sampling
# the SM clock, power and throttle reasons every 100 ms beside them; cuda/lookback and vk/ballot
# in the same way. Usage: OUT=... bash docs/results/h200-2026-11-25b/device/vk-clocks.sh
set -uo pipefail
B=build-carry
R=/tmp/results
mkdir -p $R
. tools/device-env.sh
stage() { echo "== $* ($(date +%T.%N | cut -c1-12))"; }
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,clocks_throttle_reasons.active,utilization.gpu \
  --format=csv,noheader -lms 100 > $R/clocks.csv &
SMI=$!
{
  for i in 1 2 3; do
    for cfg in "tile=256x4 state=relaxed lookback=one" "tile=256x4 state=packed lookback=one" \
               "tile=128x16 state=relaxed lookback=all" "tile=128x8 state=packed lookback=one"; do
      set -- $cfg
      stage "vk/lookback $cfg, round $i"
      $B/winnow run --algo vk/lookback --param $1 --param $2 --param $3 --case uniform:256M:p=0.5 --reps 20 \
        --warmup 2 2>&1 | grep -E "total|compact" | head -3
    done
    stage "vk/ballot, round $i"
    $B/winnow run --algo vk/ballot --case uniform:256M:p=0.5 --reps 20 --warmup 2 2>&1 | grep -E "total" | head -2
    stage "cuda/lookback, round $i"
    $B/winnow run --algo cuda/lookback --case uniform:256M:p=0.5 --reps 20 --warmup 2 2>&1 | grep -E "total" | head -2
  done
  stage done
} 2>&1 | tee $OUT/log.txt
kill $SMI
tar -czf $OUT/results.tar.gz -C $R .
