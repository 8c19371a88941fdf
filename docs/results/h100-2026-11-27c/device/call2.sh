#!/bin/bash
# Call 2 of 2026-11-27c (H100), build with prefetch = 2 tiles per SM as cuda/lookback's default.
# (1) cuda_tests (the new cuda_lookback test: prefetching up to the last partial tile, every element
# size, place and store); the default on every predicate case of the conformance suite, verified
# by winnow bench. (2) At 2^28: prefetch 0/2/3 per SM × the sleep wait's first pause 1000/2000 ns ×
# staged/direct stores, 10/50/90 % valid, and in place, against cub::DeviceSelect::If (out and in) in
# the same process; 2^20 and 2^24 with the default and prefetch=0; 128-bit elements at 2^27. (3) ncu
# of the default and of prefetch=0 at 2^28 / 50 %. Carry build-gz/winnow.xz build-gz/cuda_tests.xz .gl .libs.
set -u
. tools/device-env.sh
B=build-carry; W=$B/winnow; R=call2; mkdir -p $R
pack() { tar czf $OUT/call2.tgz $R; }
trap 'pack; exit 143' TERM
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/gpu.txt
$W --version | tee $R/version.txt
timeout 150 $B/cuda_tests --gtest_brief=1 > $R/cuda_tests.log 2>&1; echo "cuda_tests exit $?"; tail -3 $R/cuda_tests.log
conf=(); for c in all:0 all:1 none:1 single:1 all:1000 none:1000 single:1000 single:1000:at=0 alternating:1001 \
  uniform:100003:p=0.02 uniform:100003:p=0.1 uniform:100003:p=0.5 uniform:100003:p=0.9 runs:100003 \
  runs:65537:valid=1:invalid=300 runs:65537:valid=300:invalid=1 brownian:100003:p=0.3 finger:256K i_finger:256K \
  hand:256K i_hand:256K bunny:256K i_bunny:256K finger:100003 uniform:4M:p=0.5 uniform:64M:p=0.3; do conf+=(--case $c); done
timeout 120 $W bench --api cuda --algo cuda/lookback "${conf[@]}" --param element=32,64,128 --param place=out,in \
  --reps 1 --warmup 0 --warmup-time 0 --name conformance --out $R > $R/conformance.log 2>&1
echo "conformance bench exit $?"; tail -2 $R/conformance.log
t0=$(date +%s)
timeout 200 $W bench --api cuda --algo 'cuda/lookback,cuda/cub_if' --case uniform:256M:p=0.1 --case uniform:256M:p=0.5 \
  --case uniform:256M:p=0.9 --reps 10 --warmup-time 300 --param 'cuda/lookback:prefetch=0,2,3' \
  --param 'cuda/lookback:pause=1000,2000' --param 'cuda/lookback:store=staged,direct' --name sweep --out $R > $R/sweep.log 2>&1
echo "sweep exit $? in $(( $(date +%s) - t0 )) s"; pack
timeout 60 $W bench --api cuda --algo 'cuda/lookback,cuda/cub_if' --case uniform:256M:p=0.5 --param place=in \
  --param 'cuda/lookback:prefetch=0,2' --reps 10 --warmup-time 300 --name inplace --out $R > $R/inplace.log 2>&1
echo "inplace exit $?"
small=(); for n in 1M 16M; do for p in 0.1 0.5 0.9; do small+=(--case uniform:$n:p=$p); done; done
timeout 60 $W bench --api cuda --algo 'cuda/lookback,cuda/cub_if' "${small[@]}" --param 'cuda/lookback:prefetch=0,2' \
  --reps 10 --warmup-time 300 --name small --out $R > $R/small.log 2>&1
echo "small exit $?"
timeout 60 $W bench --api cuda --algo cuda/lookback --case uniform:128M:p=0.5 --param element=128 --param prefetch=0,2,3 \
  --param store=staged,direct --reps 10 --warmup-time 300 --name wide --out $R > $R/wide.log 2>&1
echo "wide exit $?"; pack
for pf in 2 0; do
  timeout 60 ncu --section SpeedOfLight --section Occupancy --section MemoryWorkloadAnalysis --section LaunchStats \
    --section SchedulerStats --section WarpStateStats -k regex:compact_kernel -c 1 $W run --algo cuda/lookback \
    --param prefetch=$pf --case uniform:256M:p=0.5 --reps 1 --warmup 0 --warmup-time 0 > $R/ncu-prefetch$pf.txt 2>&1
  echo "ncu prefetch=$pf exit $?"; grep -E "DRAM Throughput|Duration|L2 Hit Rate " $R/ncu-prefetch$pf.txt
done
pack
