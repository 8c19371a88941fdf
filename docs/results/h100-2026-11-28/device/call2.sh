#!/bin/bash
# Call 2 of 2026-11-28 (9387e5a): call 1 again with choice=speculate on the host (the guess's first pass run
# ahead of the choice, unpredicated) beside choice=host (the default on GL). First the adaptive conformance tests with the validation layer on (speculate on
# gl, vkfrag and vk); then the logo at 4M, the two choices alternating three times; then the adaptive
# suite and the five held-back images on gl, both choices swept in one bench beside Binary-Tree at
# every block (the oracle), with the records model of 2026-11-26b as 2026-11-27d's call 6 ran it.
# Carry build-gz (winnow.xz, conformance_tests.xz of 9387e5a) .gl .libs exp2;
# `bash docs/results/h100-2026-11-28/device/call2.sh`.
set -u
. tools/device-env.sh
W=build-carry/winnow; R=call2; mkdir -p $R
M=docs/results/h100-2026-11-26b/adaptive/gl/moreira.jsonl
pack() { tar czf $OUT/call2.tgz $R; }
trap 'pack; exit 143' TERM
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/gpu.txt
$W --version | tee $R/version.txt
WINNOW_DEBUG=1 timeout 150 build-carry/conformance_tests --gtest_filter='*adaptive*:*choice*:*speculating*' > $R/conformance.log 2>&1
echo "conformance exit $?"; tail -3 $R/conformance.log
for i in 1 2 3; do
  for choice in host speculate; do
    f=$R/logo-$choice-$i
    timeout 30 $W run --algo gl/adaptive --case file:exp2/images/logo.png --param choice=$choice --param model=$M --param concat=auto \
      --reps 40 --warmup-time 300 --out $f.jsonl > $f.txt 2>&1
    echo "logo $choice $i exit $?: $(grep -E '^total|^chosen' $f.txt | cut -c1-110)"
  done
done
pack
images=""; for f in hopper i_hopper dem mri logo; do images="$images file:exp2/images/$f.png"; done
for what in images suite; do
  extra=(); name=adaptive; [ $what = images ] && { extra=(--case $images); name=adaptive-images; }
  t0=$(date +%s)
  timeout 150 $W bench --suite adaptive --api gl --algo "gl/adaptive,gl/bt" --warmup-time 400 "${extra[@]}" \
    --param "gl/adaptive:model=$M" --param "gl/adaptive:choice=host,speculate" --name $name --out $R/adaptive/gl > $R/gl-$what.log 2>&1
  echo "gl $what exit $? in $(( $(date +%s) - t0 )) s"; tail -1 $R/gl-$what.log
  pack
done
