#!/bin/bash
# Call 3 of 2026-11-27c (H100). (1) cuda/lookback (prefetch 2 per SM, its default) with the sleep wait's
# first pause at 2000 / 3000 / 5000 ns, staged and direct, at 2^28 (10 / 50 / 90 % valid), 2^20 and 2^24,
# against cub::DeviceSelect::If in the same process; 128-bit elements at 2^27. (2) vk/lookback with
# its new touch prefetch (0 / 264 / 528 tiles ahead) at 2^24 and 2^28 and 128-bit at 2^27, and the
# Vulkan copy roofline (winnow calibrate --api vk). Carry build-gz/winnow.xz .gl .libs.
set -u
. tools/device-env.sh
B=build-carry; W=$B/winnow; R=call3; mkdir -p $R
pack() { tar czf $OUT/call3.tgz $R; }
trap 'pack; exit 143' TERM
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/gpu.txt
$W --version | tee $R/version.txt
big=(); small=(); for p in 0.1 0.5 0.9; do big+=(--case uniform:256M:p=$p); small+=(--case uniform:1M:p=$p --case uniform:16M:p=$p); done
t0=$(date +%s)
timeout 150 $W bench --api cuda --algo 'cuda/lookback,cuda/cub_if' "${big[@]}" --reps 10 --warmup-time 300 \
  --param 'cuda/lookback:pause=2000,3000,5000' --param 'cuda/lookback:store=staged,direct' --name pause --out $R > $R/pause.log 2>&1
echo "pause exit $? in $(( $(date +%s) - t0 )) s"; pack
timeout 60 $W bench --api cuda --algo 'cuda/lookback,cuda/cub_if' "${small[@]}" --reps 10 --warmup-time 300 \
  --param 'cuda/lookback:pause=1000,2000,3000' --name pause-small --out $R > $R/pause-small.log 2>&1
echo "pause-small exit $?"
timeout 60 $W bench --api cuda --algo cuda/lookback --case uniform:128M:p=0.5 --param element=128 --param pause=2000,3000 \
  --param store=staged,direct --reps 10 --warmup-time 300 --name wide --out $R > $R/wide.log 2>&1
echo "wide exit $?"; pack
t0=$(date +%s)
timeout 150 $W bench --api vk --algo vk/lookback "${big[@]}" --case uniform:16M:p=0.5 --reps 10 --warmup-time 1000 \
  --param prefetch=0,264,528 --name vk --out $R > $R/vk.log 2>&1
echo "vk exit $? in $(( $(date +%s) - t0 )) s"; pack
timeout 60 $W bench --api vk --algo vk/lookback --case uniform:128M:p=0.5 --param element=128 --param prefetch=0,264 \
  --reps 10 --warmup-time 1000 --name vk-wide --out $R > $R/vk-wide.log 2>&1
echo "vk-wide exit $?"
timeout 90 $W calibrate --api vk --out $R/calibrate-vk.jsonl > $R/calibrate-vk.txt 2>&1
echo "calibrate vk exit $?"; grep -i "copy\|roofline" $R/calibrate-vk.txt | head -20
pack
