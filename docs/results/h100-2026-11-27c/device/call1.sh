#!/bin/bash
# Call 1 of 2026-11-27c (H100). (1) cuda/lookback with the new L2 prefetch (a block asks L2 for the tile
# `prefetch` ids ahead of its own) and the sleep wait's first pause, against cub::DeviceSelect::If in
# the same process, at 2^24 and 2^28 (10 / 50 / 90 % valid) and 128-bit elements at 2^27; the copy
# roofline (winnow calibrate --api cuda) in the same call. (2) The adaptive algorithm's fragment paths
# with the records model fitted by relative error (637b542): the adaptive suite and the five held-back
# images on vkfrag and gl beside Binary-Tree at every block. (3) The sample pass's cost against its
# windows' stride (../../next-device-run/device/sample-cost.sh) with what time is left.
# Carry build-gz/winnow.xz .gl .libs exp2; `bash docs/results/h100-2026-11-27c/device/call1.sh`.
set -u
start_call=$(date +%s)
. tools/device-env.sh
B=build-carry; W=$B/winnow; R=call1; mkdir -p $R/lookback
pack() { tar czf $OUT/call1.tgz $R; }
trap 'pack; exit 143' TERM
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/gpu.txt
$W --version | tee $R/version.txt
cases=(); for n in 16M 256M; do for p in 0.1 0.5 0.9; do cases+=(--case uniform:$n:p=$p); done; done
t0=$(date +%s)
timeout 220 $W bench --api cuda --algo 'cuda/lookback,cuda/cub_if' "${cases[@]}" --reps 10 --warmup-time 300 \
  --param 'cuda/lookback:prefetch=0,132,264,528,1056,2112' --param 'cuda/lookback:pause=1000,250' \
  --name prefetch --out $R/lookback > $R/lookback/prefetch.log 2>&1
echo "lookback exit $? in $(( $(date +%s) - t0 )) s"
timeout 60 $W bench --api cuda --algo cuda/lookback --case uniform:128M:p=0.5 --reps 10 --warmup-time 300 \
  --param element=128 --param prefetch=0,264,528,1056 --name wide --out $R/lookback > $R/lookback/wide.log 2>&1
echo "wide exit $?"
timeout 60 $W calibrate --api cuda --out $R/lookback/calibrate.jsonl > $R/lookback/calibrate.txt 2>&1
echo "calibrate exit $?"
grep -E "^cuda/" $R/lookback/prefetch.log $R/lookback/wide.log | head -100
pack
images=""; for f in hopper i_hopper dem mri logo; do images="$images file:exp2/images/$f.png"; done
for api in vkfrag gl; do
  M=docs/results/h100-2026-11-26b/adaptive/$api/moreira.jsonl
  for what in suite images; do
    extra=(); name=adaptive; [ $what = images ] && { extra=(--case $images); name=adaptive-images; }
    t0=$(date +%s)
    timeout 100 $W bench --suite adaptive --api $api --algo "$api/adaptive,$api/bt" --warmup-time 400 "${extra[@]}" \
      --param "*/adaptive:model=$M" --name $name --out $R/adaptive/$api > $R/$api-$what.log 2>&1
    echo "$api $what exit $? in $(( $(date +%s) - t0 )) s"; tail -1 $R/$api-$what.log
  done
  pack
done
left=$(( 570 - ($(date +%s) - start_call) ))
echo "sample-cost for $left s"
[ "$left" -gt 30 ] && timeout -s TERM "$left" bash docs/results/next-device-run/device/sample-cost.sh
pack
