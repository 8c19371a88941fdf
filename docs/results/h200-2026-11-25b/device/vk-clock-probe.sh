#!/usr/bin/env bash
# GPU session 2026-11-25 (second), call 4: which SM clock do long runs of Vulkan and CUDA work get?
# Thousands of repetitions back to back (seconds of GPU work each) with nvidia-smi sampling the
# clocks, power and utilisation every 20 ms; each stage's start and end are logged to the ms.
# Usage: OUT=... bash docs/results/h200-2026-11-25b/device/vk-clock-probe.sh
set -uo pipefail
B=build-carry
R=/tmp/results
mkdir -p $R
. tools/device-env.sh
stage() { echo "== $* ($(date +%T.%N | cut -c1-12))"; }
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,utilization.gpu,pstate --format=csv,noheader -lms 20 > $R/clocks.csv &
SMI=$!
{
  for run in "vk/ballot uniform:256M:p=0.5 2000" "cuda/cub_if uniform:256M:p=0.5 4000" \
             "vk/lookback uniform:16M:p=0.5 20000" "cuda/lookback uniform:16M:p=0.5 40000" "vk/ballot uniform:256M:p=0.5 2000"; do
    set -- $run
    stage "start $1 $2 reps $3"
    $B/winnow run --algo $1 --case $2 --reps $3 --warmup 0 --warmup-time 0 2>&1 | grep -E "^(total|reps|noise)"
    stage "end $1"
  done
} 2>&1 | tee $OUT/log.txt
kill $SMI
tar -czf $OUT/results.tar.gz -C $R .
