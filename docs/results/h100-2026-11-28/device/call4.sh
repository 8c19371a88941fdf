#!/bin/bash
# Call 4 of 2026-11-28 (ran the next session on 2a9a4e4; README "Call 4"): call 3's bench alone (the adaptive suite and the
# five held-back images on gl, choice=host, speculate and none beside Binary-Tree at every block), with
# the guess's first pass priced from the records' phase times instead of the pass model's share of the
# whole guess; none (no sample) because in call 3 it beat both choices on the image cases.
# No conformance and no logo runs: the session's device time was nearly spent.
# Carry build-gz (winnow.xz of the build to measure) .gl .libs exp2; `bash docs/results/h100-2026-11-28/device/call4.sh`.
set -u
. tools/device-env.sh
W=build-carry/winnow; R=call4; mkdir -p $R
M=docs/results/h100-2026-11-26b/adaptive/gl/moreira.jsonl
pack() { tar czf $OUT/call4.tgz $R; }
trap 'pack; exit 143' TERM
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/gpu.txt
$W --version | tee $R/version.txt
images=""; for f in hopper i_hopper dem mri logo; do images="$images file:exp2/images/$f.png"; done
for what in images suite; do
  extra=(); name=adaptive; [ $what = images ] && { extra=(--case $images); name=adaptive-images; }
  t0=$(date +%s)
  timeout 150 $W bench --suite adaptive --api gl --algo "gl/adaptive,gl/bt" --warmup-time 400 "${extra[@]}" \
    --param "gl/adaptive:model=$M" --param "gl/adaptive:choice=host,speculate,none" --name $name --out $R/adaptive/gl > $R/gl-$what.log 2>&1
  echo "gl $what exit $? in $(( $(date +%s) - t0 )) s"; tail -1 $R/gl-$what.log
  pack
done
