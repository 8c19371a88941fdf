#!/usr/bin/env bash
# Where the adaptive algorithm's sample pass spends its 21-23 µs (4096 windows of 32 elements, on every
# API alike, and not for being the run's first pass: docs/results/h100-2026-11-27b). Each pass timed
# (--per-pass) at sizes whose windows lie 32 elements (64K: every element read) to 4096 elements apart
# (16M): a cost that grows with the stride points at the memory (scattered lines, pages); one that stays
# points at the pass itself (each invocation's 32 dependent-looking loads, 4096 invocations on few SMs).
# Carry build-gz .gl .libs; `OUT=... bash docs/results/next-device-run/device/sample-cost.sh`.
set -uo pipefail
trap 'tar czf "$OUT/sample-cost.tgz" sample-cost; exit 143' TERM
. tools/device-env.sh
mkdir -p sample-cost
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee sample-cost/gpu.txt
for api in vk vkfrag gl; do
  for n in 64K 1M 4M 16M; do
    timeout 30 build-carry/winnow run --algo $api/adaptive --case uniform:$n:p=0.45:seed=7 --param choice=device \
      --param model=pass --per-pass --reps 20 --warmup-time 300 --out sample-cost/$api-$n.jsonl > sample-cost/$api-$n.txt 2>&1
    echo "$api $n exit $?: $(grep -E '^sample: sample' sample-cost/$api-$n.txt)"
  done
done
tar czf "$OUT/sample-cost.tgz" sample-cost
