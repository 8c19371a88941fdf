#!/bin/bash
# Call 7 of 2026-11-27c (H100): the adaptive algorithm's sample pass on Vulkan compute with one word
# per invocation (it had four: 1024 invocations each walking four windows), timed per pass at
# 64K-16M as in call 1's sample-cost.sh; then the adaptive suite on vk (the defaults).
# Carry build-gz/winnow.xz .gl .libs.
set -u
. tools/device-env.sh
W=build-carry/winnow; R=call7; mkdir -p $R
trap 'tar czf $OUT/call7.tgz $R; exit 143' TERM
$W --version | tee $R/version.txt
for n in 64K 1M 4M 16M; do
  timeout 30 $W run --algo vk/adaptive --case uniform:$n:p=0.45:seed=7 --param choice=device --param model=pass \
    --per-pass --reps 20 --warmup-time 300 --out $R/vk-$n.jsonl > $R/vk-$n.txt 2>&1
  echo "vk $n exit $?: $(grep -E '^sample: sample' $R/vk-$n.txt)"
done
M=docs/results/h100-2026-11-26b/adaptive/vk/moreira.jsonl
timeout 120 $W bench --suite adaptive --api vk --algo 'vk/adaptive,vk/bt' --warmup-time 400 \
  --param "*/adaptive:model=$M" --param "*/adaptive:choice=auto,device" --name adaptive --out $R/adaptive/vk > $R/vk-suite.log 2>&1
echo "vk suite exit $?"; tail -1 $R/vk-suite.log
tar czf $OUT/call7.tgz $R
