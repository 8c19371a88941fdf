#!/bin/bash
# Call 4 of 2026-11-27c (H100): issue 13's figures in one run with the new defaults (cuda/lookback:
# prefetch 2 tiles per SM, pause 2000 ns). The copy rooflines first (winnow calibrate --api cuda, --api
# vk: the Vulkan roofline now the best copy at 2^28), then the suites targets_lookback (1M / 16M / 256M,
# 10 / 50 / 90 %, and a removal list at 16M; cuda and vk, one process each) and targets_lookback_wide
# (128-bit at 2^27), then vk/lookback's first pause at 2000 / 4000 / 8000 ticks at 2^28.
# Carry build-gz/winnow.xz .gl .libs.
set -u
. tools/device-env.sh
B=build-carry; W=$B/winnow; R=call4; mkdir -p $R
pack() { tar czf $OUT/call4.tgz $R; }
trap 'pack; exit 143' TERM
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/gpu.txt
$W --version | tee $R/version.txt
for api in cuda vk; do
  timeout 100 $W calibrate --api $api --out $R/calibrate-$api.jsonl > $R/calibrate-$api.txt 2>&1
  echo "calibrate $api exit $?"; grep -E "roofline|256M_b16|memcpy_bytes_per_ns_256M" $R/calibrate-$api.txt
done
pack
for suite in targets_lookback targets_lookback_wide; do
  for api in cuda vk; do
    t0=$(date +%s)
    timeout 170 $W bench --suite cuda/bench/$suite.json --api $api --out $R/$api > $R/$suite-$api.log 2>&1
    echo "$suite $api exit $? in $(( $(date +%s) - t0 )) s"; tail -1 $R/$suite-$api.log
    pack
  done
done
timeout 90 $W bench --api vk --algo vk/lookback --case uniform:256M:p=0.1 --case uniform:256M:p=0.5 --case uniform:256M:p=0.9 \
  --param pause=2000,4000,8000 --reps 10 --warmup-time 1000 --name vk-pause --out $R > $R/vk-pause.log 2>&1
echo "vk-pause exit $?"
pack
