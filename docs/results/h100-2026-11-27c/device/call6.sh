#!/bin/bash
# Call 6 of 2026-11-27c (H100): cuda/lookback against cub::DeviceSelect::If at 2^20 with 200 repetitions
# (call 5's 10 were noisy there: one point's IQR 14.8-19.4 µs), then the Redzone reproduction resumed
# from the committed records for the rest of the call (../../h100-2026-11-27/device/redzone.sh).
# Carry build-gz/winnow.xz .gl .libs.
set -u
start_call=$(date +%s)
. tools/device-env.sh
W=build-carry/winnow; R=call6; mkdir -p $R
$W --version | tee $R/version.txt
timeout 90 $W bench --api cuda --algo 'cuda/lookback,cuda/cub_if' --case uniform:1M:p=0.1 --case uniform:1M:p=0.5 \
  --case uniform:1M:p=0.9 --param place=out,in --reps 200 --warmup-time 500 --name small --out $R > $R/small.log 2>&1
echo "small exit $?"; tail -14 $R/small.log
tar czf $OUT/call6.tgz $R
left=$(( 560 - ($(date +%s) - start_call) ))
echo "redzone for $left s"
[ "$left" -gt 60 ] && bash docs/results/h100-2026-11-27/device/redzone.sh "$left"
