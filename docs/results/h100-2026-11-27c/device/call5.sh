#!/bin/bash
# Call 5 of 2026-11-27c (H100): issue 13's figures in one run with every new default (cuda/lookback:
# prefetch 2 tiles per SM, pause 2000 ns; vk/lookback: pause 4000 ticks): the copy rooflines (winnow
# calibrate --api cuda, --api vk), the suites targets_lookback (1M / 16M / 256M, 10 / 50 / 90 %, and a
# removal list at 16M) and targets_lookback_wide (128-bit at 2^27), cuda and vk, one process each.
# Carry build-gz/winnow.xz .gl .libs.
set -u
. tools/device-env.sh
B=build-carry; W=$B/winnow; R=call5; mkdir -p $R
pack() { tar czf $OUT/call5.tgz $R; }
trap 'pack; exit 143' TERM
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/gpu.txt
$W --version | tee $R/version.txt
for api in cuda vk; do
  timeout 60 $W calibrate --api $api --out $R/calibrate-$api.jsonl > $R/calibrate-$api.txt 2>&1
  echo "calibrate $api exit $?"; grep -E "roofline" $R/calibrate-$api.txt
done
for suite in targets_lookback targets_lookback_wide; do
  for api in cuda vk; do
    t0=$(date +%s)
    timeout 240 $W bench --suite cuda/bench/$suite.json --api $api --out $R/$api > $R/$suite-$api.log 2>&1
    echo "$suite $api exit $? in $(( $(date +%s) - t0 )) s"; tail -1 $R/$suite-$api.log
    pack
  done
done
