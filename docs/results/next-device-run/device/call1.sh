#!/usr/bin/env bash
# Prepared 2026-11-25 (sixth session, after its device time ran out). What changed since the H100 run
# of docs/results/h100-2026-11-25 and has not run on a GPU: cuda/redzone1 and cuda/redzone2 append a
# case's gains in their run (Redzone §4.6, phase `append`). Their conformance on the gains cases, the
# four §4.6 cases of the redzone suite against CUB, then ncu on the persistent lookback shape that
# lost (tile=p128x16m3) beside the default, to say why.
# Usage: OUT=... bash docs/results/next-device-run/device/call1.sh
set -uo pipefail
B=build-carry
R=/tmp/results
mkdir -p $R
. tools/device-env.sh
stage() { echo "== $* ($(date +%T))"; }
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  stage "conformance: every cuda algorithm on the gains cases (removal:…:g=…)"
  timeout 120 $B/conformance_tests --gtest_brief=1 --gtest_filter='*cuda*_g_0_*' 2>&1 | tail -3
  stage "§4.6 at 16M: redzone2 (default and as published) and CUB, 3 seeds, with the append timed"
  timeout 240 $B/winnow bench --suite redzone --api cuda --algo cuda/redzone2,cuda/cub_if --seeds 3 \
    --case 'removal:16M:k=0.02:g=0.01' --case 'removal:16M:k=0.02:g=0.1' --case 'removal:16M:k=0.1:g=0.01' \
    --case 'removal:16M:k=0.1:g=0.1' --out $R --name gains 2>$R/gains-progress.log | tail -1
  stage "ncu: lookback, the default tile against the persistent p128x16m3, 256M at 50 %"
  for tile in 128x16m4 p128x16m3; do
    timeout 150 ncu --section SpeedOfLight --section Occupancy --section MemoryWorkloadAnalysis --section LaunchStats \
      -k regex:lookback $B/winnow run --algo cuda/lookback --param tile=$tile --case uniform:256M:p=0.5 --reps 1 \
      > $R/ncu-$tile.txt 2>&1; echo "ncu $tile exit $?"; grep -E "Duration|Memory Throughput|DRAM Throughput|Achieved Occupancy|Registers Per|Grid Size" $R/ncu-$tile.txt | head -12
  done
  stage done
} 2>&1 | tee $OUT/log.txt
cp $R/*.jsonl $R/*.status.json $R/ncu-*.txt $OUT/ 2>/dev/null
