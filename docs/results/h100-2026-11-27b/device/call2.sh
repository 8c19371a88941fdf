#!/bin/bash
# Call 2 of 2026-11-27b (H100): the GPU tests of the shader-era paths under the validation layer
# (the adaptive algorithm's choice=none / auto among them); Binary-Tree alone at B = 2048, each pass
# timed at 4M on the three paths (is a run's first pass dearer, as the adaptive sample pass is?); the
# adaptive algorithm with its choice read back, each pass timed, on Vulkan compute; then the Redzone
# reproduction resumed from call 1's records (exp/redzone.tgz) for the rest of the call.
# Carry build-gz .gl .libs exp; `bash docs/results/h100-2026-11-27b/device/call2.sh`.
set -u
start_call=$(date +%s)
. tools/device-env.sh
B=build-carry; W=$B/winnow; R=call2-out; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/gpu.txt
$W --version
WINNOW_DEBUG=1 timeout 150 $B/conformance_tests --gtest_filter='shader_era.*:*adaptive*' > $R/conformance.log 2>&1
echo "conformance exit $?"; grep -E "FAILED|PASSED" $R/conformance.log | head -10
gzip -f $R/conformance.log
C=uniform:4M:p=0.45:seed=7
for api in vk vkfrag gl; do
  timeout 30 $W run --algo $api/bt --case $C --param block=2048 --per-pass --reps 20 --warmup-time 300 \
    --out $R/$api-bt-per-pass.jsonl > $R/$api-bt-per-pass.txt 2>&1
  echo "$api bt per-pass exit $?"; grep -E "reduce 1 |reduce 2 |^total" $R/$api-bt-per-pass.txt
done
M=docs/results/h100-2026-11-26b/adaptive/vk/moreira.jsonl
timeout 30 $W run --algo vk/adaptive --case $C --param model=$M --param choice=host --per-pass --reps 20 --warmup-time 300 \
  --out $R/vk-adaptive-host-per-pass.jsonl > $R/vk-adaptive-host-per-pass.txt 2>&1
echo "vk adaptive host per-pass exit $?"; grep -E "^(sample|choose)|reduce 1 |^total" $R/vk-adaptive-host-per-pass.txt
tar czf $OUT/call2.tgz $R
left=$(( 575 - ($(date +%s) - start_call) ))
echo "redzone for $left s"
[ "$left" -gt 60 ] && bash docs/results/h100-2026-11-27/device/redzone.sh "$left"
