#!/bin/bash
# Call 1 of 2026-11-27 (prepared 2026-11-26, when no device time was left): kick_ordered
# validated (the choice test on every API, validation on), each pass of the adaptive algorithm timed
# (--per-pass; both schedules on the device) on the three paths beside BT at B = 128, the adaptive suite on vk with the choice on the
# device and read back. Binaries xz-compressed in build-gz/ (the carry limit: stripped winnow and
# conformance_tests); carry build-gz .gl .libs, `bash docs/results/h100-2026-11-27/device/call1.sh`.
set -u
. tools/device-env.sh # unpacks build-gz/ into build-carry/
B=build-carry
W=$B/winnow; R=adaptive-out; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/gpu.txt
$W --version
start=$(date +%s)
WINNOW_DEBUG=1 timeout 180 $B/conformance_tests --gtest_filter='shader_era.*:*adaptive*:*sample_pass*:*choice_pass*' > $R/conformance.log 2>&1
echo "conformance exit $? in $(( $(date +%s) - start )) s"; grep -E "FAILED|PASSED" $R/conformance.log | head -20
C=uniform:4M:p=0.45:seed=7
for api in vk vkfrag gl; do
  M=docs/results/h100-2026-11-26b/adaptive/$api/moreira.jsonl
  for choice in device:sequential device:interleaved host:sequential; do
    timeout 60 $W run --algo $api/adaptive --case $C --param model=$M --param choice=${choice%:*} --param schedule=${choice#*:} \
      --per-pass --reps 20 --warmup-time 1000 --out $R/$api-adaptive-${choice/:/-}.jsonl > $R/$api-adaptive-${choice/:/-}.txt 2>&1
    echo "$api $choice exit $?"
  done
  timeout 60 $W run --algo $api/bt --case $C --param block=128 --per-pass --reps 20 --warmup-time 1000 --out $R/$api-bt.jsonl > $R/$api-bt.txt 2>&1
  echo "$api bt exit $?"
done
start=$(date +%s)
timeout 200 $W bench --suite adaptive --api vk --algo "vk/adaptive,vk/bt" --param "*/adaptive:model=docs/results/h100-2026-11-26b/adaptive/vk/moreira.jsonl" \
  --param '*/adaptive:choice=device,host' --param '*/adaptive:schedule=sequential,interleaved' --out $R/vk > $R/vk-eval.log 2>&1
echo "vk adaptive suite exit $? in $(( $(date +%s) - start )) s"; tail -1 $R/vk-eval.log
tar czf $OUT/adaptive.tgz $R
