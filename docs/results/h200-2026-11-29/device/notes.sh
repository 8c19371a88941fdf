#!/usr/bin/env bash
# The records' notes on the GPU: the adaptive suite on gl, vkfrag and vk with choice=auto only, the model
# fitted from 2026-11-28's records of this card (committed in ../../h200-2026-11-28/call{1,2}/train), so
# that what auto weighed can be read beside that session's regrets (gl: B = 128, mean 40.7 µs; vkfrag:
# 67.0 µs; vk: B = 2048, 0.5 µs at 4M). Carry build-gz .gl .libs (and those train files, over 300 KB).
# Usage: bash docs/results/h200-2026-11-29/device/notes.sh
set -u
. tools/device-env.sh
R=notes; mkdir -p $R
trap 'tar czf $OUT/notes.tgz $R; exit 143' TERM
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/gpu.txt
build-carry/winnow --version | tee $R/version.txt
T=docs/results/h200-2026-11-28
for api in gl vkfrag vk; do
  M=$T/call1/train/gl/moreira.jsonl; [ $api != gl ] && M=$T/call2/train/$api/moreira.jsonl
  t0=$(date +%s)
  timeout 150 build-carry/winnow bench --suite adaptive --api $api --algo $api/adaptive \
    --param "$api/adaptive:model=$M" --param "$api/adaptive:choice=auto" --out $R/$api > $R/$api.log 2>&1
  echo "$api exit $? in $(( $(date +%s) - t0 )) s"; tail -1 $R/$api.log
done
tar czf $OUT/notes.tgz $R
