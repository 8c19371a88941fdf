#!/bin/bash
# Call 3 of 2026-11-27d: what the fragment paths' sample and choose passes wait for. A build of cca23e9
# with layout-choose-variants.patch (an experiment, not committed): WINNOW_X_WIDTH lays the sample's
# 4096 words out at least that wide (64 × 64 as committed; 1024 × 4, 2048 × 2, 4096 × 1: the same
# fragments over more of the screen's tiles, hence more SMs, if the rasterizer deals tiles to them);
# WINNOW_X_CHOOSE: 0 as committed, 1 without the candidates' loop, 2 without the regions' loop,
# 3 the candidates 16 at a time, unrolled. All at 4M (uniform p = 0.45, choice=device, model=pass).
# Then GL's choice on the host at 1M and 4M with read_midway's pixel-pack copy (cca23e9).
# Carry build-gz/winnow-x.xz .gl .libs.
set -u
. tools/device-env.sh
W=build-carry/winnow-x; R=call3; mkdir -p $R
trap 'tar czf $OUT/call3.tgz $R; exit 143' TERM
$W --version | tee $R/version.txt
row() { grep -E "^$1" $2 | awk '{print $(NF-6), $(NF-5)}' | head -1; }
one() { # api label env...
  local api=$1 label=$2; shift 2; local f=$R/$api-$label
  env "$@" timeout 30 $W run --algo $api/adaptive --case uniform:4M:p=0.45:seed=7 --param choice=device --param model=pass \
    --per-pass --reps 20 --warmup-time 300 --out $f.jsonl > $f.txt 2>&1
  echo "$api $label exit $?: sample $(row 'sample: sample' $f.txt) choose $(row 'choose: choose' $f.txt)"
}
for api in gl vkfrag vk; do
  for w in 64 1024 2048 4096; do one $api width$w WINNOW_X_WIDTH=$w; done
  for v in 1 2 3; do one $api choose$v WINNOW_X_CHOOSE=$v; done
done
for n in 1M 4M; do
  f=$R/gl-$n-host
  timeout 30 $W run --algo gl/adaptive --case uniform:$n:p=0.45:seed=7 --param choice=host --param model=pass \
    --per-pass --reps 20 --warmup-time 300 --out $f.jsonl > $f.txt 2>&1
  echo "gl host $n exit $?"; grep -E '^sample|^choose' $f.txt
done
tar czf $OUT/call3.tgz $R
