#!/bin/bash
# Call 4 of 2026-11-27 (H100): the adaptive algorithm after its sample pass lost the branch around
# its loads and the choice pass its branches (common/shaders/sample.glsl, choose.glsl), and with
# choice=auto taking the device on Vulkan compute. The GPU tests under the validation layer; each pass
# timed at 4M (--per-pass) on the three paths; then the adaptive suite (14 cases at 4M) and the five
# held-back real images (exp2/images, tools/report/held_back_images.py) on each path, beside Binary-Tree
# at every block (the oracle), with the choice on the device (both schedules on the fragment paths,
# where the per-pass run of call 1 found interleaving no slower) and read back.
# Carry build-gz .gl .libs exp2; `bash docs/results/h100-2026-11-27/device/call4.sh`.
set -u
. tools/device-env.sh # unpacks build-gz/ into build-carry/
B=build-carry; W=$B/winnow; R=adaptive-out; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/gpu.txt
$W --version
WINNOW_DEBUG=1 timeout 60 $B/conformance_tests --gtest_filter='shader_era.*:*adaptive*' > $R/conformance.log 2>&1
echo "conformance exit $?"; grep -E "FAILED|PASSED" $R/conformance.log | head -10
C=uniform:4M:p=0.45:seed=7
for api in vk vkfrag gl; do
  M=docs/results/h100-2026-11-26b/adaptive/$api/moreira.jsonl
  timeout 30 $W run --algo $api/adaptive --case $C --param model=$M --param choice=device --per-pass --reps 20 \
    --warmup-time 500 --out $R/$api-adaptive-per-pass.jsonl > $R/$api-adaptive-per-pass.txt 2>&1
  echo "$api per-pass exit $?"; grep -E "^(sample|choose)" $R/$api-adaptive-per-pass.txt
done
images=""; for f in hopper i_hopper dem mri logo; do images="$images file:exp2/images/$f.png"; done
for api in vk vkfrag gl; do
  M=docs/results/h100-2026-11-26b/adaptive/$api/moreira.jsonl
  schedules=sequential; [ $api != vk ] && schedules=sequential,interleaved
  start=$(date +%s)
  timeout 120 $W bench --suite adaptive --api $api --algo "$api/adaptive,$api/bt" --warmup-time 400 --param "*/adaptive:model=$M" \
    --param '*/adaptive:choice=device,host' --param "*/adaptive:schedule=$schedules" --out $R/$api > $R/$api-eval.log 2>&1
  echo "$api suite exit $? in $(( $(date +%s) - start )) s"; tail -1 $R/$api-eval.log
  start=$(date +%s)
  timeout 45 $W bench --suite adaptive --api $api --algo "$api/adaptive,$api/bt" --warmup-time 400 --case $images \
    --param "*/adaptive:model=$M" --param '*/adaptive:choice=device,host' --param "*/adaptive:schedule=$schedules" \
    --name adaptive-images --out $R/$api > $R/$api-images.log 2>&1
  echo "$api images exit $? in $(( $(date +%s) - start )) s"; tail -1 $R/$api-images.log
  tar czf $OUT/adaptive.tgz $R # after each path: what ran comes back if the call is cut short
done
tar czf $OUT/adaptive.tgz $R
