#!/bin/bash
# Call 1 of 2026-11-27d: where the fragment paths' sample pass spends its 21-23 µs at 1M-4M (6.7 at
# 64K, 14.8 at 16M: not the memory's scatter, docs/results/h100-2026-11-27c). A build of 29f15c0 with
# sample-variants.patch (not committed: an experiment), whose WINNOW_X_VARIANT picks how the pass reads:
# 0 as committed; 1 each window at a pseudo-random multiple of 32 within its slot of the stride (no two
# windows at the same column); 2 the 64 × 64 fragments' windows transposed (a warp's fragments on
# windows 64 apart); 3 eight elements a window, not 32 (is it the loads a fragment waits for?);
# WINNOW_X_STRIDE=32 the 4096 windows side by side (the first 128K elements: the 64K case's locality at
# 4096 windows). Also the choose pass with its candidates unrolled 16 at a time (29f15c0), and GL's
# choice on the host from the sample words (29f15c0).
# Carry build-gz/winnow-x.xz .gl .libs; `bash docs/results/h100-2026-11-27d/device/call1.sh`.
set -u
. tools/device-env.sh
W=build-carry/winnow-x; R=call1; mkdir -p $R
trap 'tar czf $OUT/call1.tgz $R; exit 143' TERM
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/gpu.txt
$W --version | tee $R/version.txt
one() { # api n label env...
  local api=$1 n=$2 label=$3; shift 3
  env "$@" timeout 30 $W run --algo $api/adaptive --case uniform:$n:p=0.45:seed=7 --param choice=device --param model=pass \
    --per-pass --reps 20 --warmup-time 300 --out $R/$api-$n-$label.jsonl > $R/$api-$n-$label.txt 2>&1
  echo "$api $n $label exit $?: $(grep -E '^sample: sample' $R/$api-$n-$label.txt | awk '{print $3, $4}') choose $(grep -E '^choose: choose' $R/$api-$n-$label.txt | awk '{print $3, $4}')"
}
for api in gl vkfrag; do
  for n in 1M 4M 16M; do
    for v in 0 1 2 3; do one $api $n v$v WINNOW_X_VARIANT=$v; done
    one $api $n side WINNOW_X_STRIDE=32
  done
done
for n in 1M 4M; do
  timeout 30 $W run --algo gl/adaptive --case uniform:$n:p=0.45:seed=7 --param choice=host --param model=pass \
    --per-pass --reps 20 --warmup-time 300 --out $R/gl-$n-host.jsonl > $R/gl-$n-host.txt 2>&1
  echo "gl host $n exit $?"; grep -E '^sample|^choose' $R/gl-$n-host.txt
done
tar czf $OUT/call1.tgz $R
