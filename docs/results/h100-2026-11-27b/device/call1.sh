#!/bin/bash
# Call 1 of 2026-11-27b (H100): the adaptive algorithm's new choice=none / auto (settling without a
# sample where the least-regret candidate cannot lose what the sample costs): the adaptive suite (14 cases at 4M) and the five held-back real images
# (exp2/images, tools/report/held_back_images.py) beside Binary-Tree at every block (the oracle) — on
# Vulkan compute with choice=auto and device, models records and pass; on the fragment paths with the
# defaults (choice=auto, schedule=auto), which had not run on a GPU as defaults. Then the Redzone
# reproduction resumed for the rest of the call (../../h100-2026-11-27/device/redzone.sh).
# Carry build-gz/winnow.xz .gl .libs exp2 (the GPU tests ran in call 2: with them, the images pass the carry limit); `bash docs/results/h100-2026-11-27b/device/call1.sh`.
set -u
start_call=$(date +%s)
. tools/device-env.sh # unpacks build-gz/ into build-carry/
B=build-carry; W=$B/winnow; R=adaptive-out; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/gpu.txt
$W --version
images=""; for f in hopper i_hopper dem mri logo; do images="$images file:exp2/images/$f.png"; done
for api in vk vkfrag gl; do
  M=docs/results/h100-2026-11-26b/adaptive/$api/moreira.jsonl
  models=$M; choices=auto; [ $api = vk ] && { models=$M,pass; choices=auto,device; }
  for what in suite images; do
    extra=(); name=adaptive; [ $what = images ] && { extra=(--case $images); name=adaptive-images; }
    t0=$(date +%s)
    timeout 100 $W bench --suite adaptive --api $api --algo "$api/adaptive,$api/bt" --warmup-time 400 "${extra[@]}" \
      --param "*/adaptive:model=$models" --param "*/adaptive:choice=$choices" --name $name --out $R/$api > $R/$api-$what.log 2>&1
    echo "$api $what exit $? in $(( $(date +%s) - t0 )) s"; tail -1 $R/$api-$what.log
  done
  tar czf $OUT/adaptive.tgz $R # after each path: what ran comes back if the call is cut short
done
left=$(( 575 - ($(date +%s) - start_call) ))
echo "redzone for $left s"
[ "$left" -gt 60 ] && bash docs/results/h100-2026-11-27/device/redzone.sh "$left"
