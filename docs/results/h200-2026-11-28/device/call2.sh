#!/bin/bash
# Call 2 of 2026-11-28 on the H200: call 1's measurement on the two Vulkan paths. The moreira suite at
# 4M on vkfrag and vk (train.sh's reduced grid; vk copies on compute), then the adaptive suite and the
# five held-back images on each, choice=auto (the default) and device, beside Binary-Tree at every block.
# Carry build-gz (winnow.xz) .gl .libs exp2: `bash docs/results/h200-2026-11-28/device/call2.sh`.
set -u
. tools/device-env.sh
W=build-carry/winnow; R=call2; mkdir -p $R
pack() { tar czf $OUT/call2.tgz $R; }
trap 'pack; exit 143' TERM
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/gpu.txt
$W --version | tee $R/version.txt
for api in vkfrag vk; do
  extra=(); [ $api = vk ] && extra=(--param concat=copy)
  t0=$(date +%s)
  timeout 150 $W bench --suite moreira --api $api --case '*:4M*' --param scan=hillis --param '*/rlz:search=fast' \
    --param '*/rlz:runs=doubling' "${extra[@]}" --out $R/train/$api > $R/$api-train.log 2>&1
  echo "$api train exit $? in $(( $(date +%s) - t0 )) s"; tail -1 $R/$api-train.log
  pack
done
images=""; for f in hopper i_hopper dem mri logo; do images="$images file:exp2/images/$f.png"; done
for api in vkfrag vk; do
  for what in images suite; do
    extra=(); name=adaptive; limit=90; [ $what = images ] && { extra=(--case $images); name=adaptive-images; limit=40; }
    t0=$(date +%s)
    timeout $limit $W bench --suite adaptive --api $api --algo "$api/adaptive,$api/bt" --warmup-time 400 "${extra[@]}" \
      --param "$api/adaptive:model=$R/train/$api/moreira.jsonl" --param "$api/adaptive:choice=auto,device" --name $name \
      --out $R/adaptive/$api > $R/$api-$what.log 2>&1
    echo "$api $what exit $? in $(( $(date +%s) - t0 )) s"; tail -1 $R/$api-$what.log
    pack
  done
done
