#!/bin/bash
# Call 5 of 2026-11-27d (974f158): call 4 again after two more changes — the model's change-rate
# feature is √c (92f9cba: by the offline evaluation of call 4's records, it picks B = 128 on vkfrag's
# bunny), and GL's choice on the host reads the sample's 4096 words through the pixel-pack buffer
# with no sums on the device (974f158). The passes at 4M first (host and device), then the adaptive
# suite and the five held-back images on gl and vkfrag beside Binary-Tree at every block.
# Carry build-gz/winnow.xz .gl .libs exp2; `bash docs/results/h100-2026-11-27d/device/call5.sh`.
set -u
. tools/device-env.sh
W=build-carry/winnow; R=call5; mkdir -p $R
pack() { tar czf $OUT/call5.tgz $R; }
trap 'pack; exit 143' TERM
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/gpu.txt
$W --version | tee $R/version.txt
for api in gl vkfrag vk; do
  for choice in device host; do
    f=$R/passes-$api-$choice
    timeout 30 $W run --algo $api/adaptive --case uniform:4M:p=0.45:seed=7 --param choice=$choice --param model=pass \
      --per-pass --reps 20 --warmup-time 300 --out $f.jsonl > $f.txt 2>&1
    echo "$api $choice exit $?"; grep -E '^sample|^choose' $f.txt
  done
done
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
pack
