#!/bin/bash
# Call 3 of 2026-11-28 on the H200: call 2's vk suite again with the suite's own warm-up (one second a
# record, which the suite sets because the first case after a model is fitted found the GPU at idle
# clocks; calls 1-2 gave 400 ms as 2026-11-28's H100 calls did). In call 2 that first case, finger, ran
# at 1.36 × the oracle on the oracle's own block, every phase 1.3-1.4 × slower. choice=auto only.
# Model: call 2's vk records, carried as exp/vk-moreira.jsonl.
# Carry build-gz .gl .libs exp: `bash docs/results/h200-2026-11-28/device/call3.sh`.
set -u
. tools/device-env.sh
W=build-carry/winnow; R=call3; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/gpu.txt
$W --version | tee $R/version.txt
timeout 200 $W bench --suite adaptive --api vk --algo "vk/adaptive,vk/bt" \
  --param "vk/adaptive:model=exp/vk-moreira.jsonl" --name adaptive --out $R/adaptive/vk > $R/vk.log 2>&1
echo "vk exit $?"; tail -1 $R/vk.log
tar czf $OUT/call3.tgz $R
