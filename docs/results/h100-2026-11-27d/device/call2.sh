#!/bin/bash
# Call 2 of 2026-11-27d: the sample and choice passes of 3b4cd97 (every load made unconditionally in
# sample.glsl and choose.glsl; choice=host reading the regions' sums and choosing on the host, no
# choice pass), per pass at 1M / 4M / 16M on the three paths (choice=device, model=pass), and GL's
# choice on the host at 1M and 4M. The build before (call 1's variant 0) does not fit the carry beside
# it: its numbers are call 1's, on an H100 of the same kind and driver minutes before.
# Carry build-gz/winnow-y.xz (3b4cd97) .gl .libs.
set -u
. tools/device-env.sh
R=call2; mkdir -p $R
trap 'tar czf $OUT/call2.tgz $R; exit 143' TERM
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/gpu.txt
row() { grep -E "^$1" $2 | awk '{print $(NF-6), $(NF-5)}' | head -1; }
for bin in winnow-y; do
  W=build-carry/$bin; $W --version | tee $R/$bin-version.txt
  for api in gl vkfrag vk; do
    for n in 1M 4M 16M; do
      f=$R/$bin-$api-$n
      timeout 30 $W run --algo $api/adaptive --case uniform:$n:p=0.45:seed=7 --param choice=device --param model=pass \
        --per-pass --reps 20 --warmup-time 300 --out $f.jsonl > $f.txt 2>&1
      echo "$bin $api $n exit $?: sample $(row 'sample: sample' $f.txt) choose $(row 'choose: choose' $f.txt)"
    done
  done
  for n in 1M 4M; do
    f=$R/$bin-gl-$n-host
    timeout 30 $W run --algo gl/adaptive --case uniform:$n:p=0.45:seed=7 --param choice=host --param model=pass \
      --per-pass --reps 20 --warmup-time 300 --out $f.jsonl > $f.txt 2>&1
    echo "$bin gl host $n exit $?"; grep -E '^sample|^choose' $f.txt
  done
done
tar czf $OUT/call2.tgz $R
