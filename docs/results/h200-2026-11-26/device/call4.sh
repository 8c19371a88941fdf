#!/usr/bin/env bash
# Call 4 (2026-11-26): cuda/lookback's bulk shapes (the tile bulk-copied into shared memory, one per
# block): sanitizers, every element size / place / store on the edge cases, then the tile suite's
# uniform cases at 2^24 and 2^28 against the default register tile and CUB. The b… tile shapes exist
# only in the experiment's commit, 11fe561 (removed in the next): build that commit to run this again.
set -uo pipefail
B=build-carry; mkdir -p $B; for f in build-gz/*.gz; do gunzip -c $f > $B/$(basename $f .gz); chmod +x $B/$(basename $f .gz); done
. tools/device-env.sh
R=/tmp/results4; mkdir -p $R
W=$B/winnow
BULK=b128x16m5,b128x16m6,b256x8m3,b128x8m10,b64x16m12
stage() { echo "== $* ($(date +%T))"; }
{
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
  for tool in memcheck racecheck synccheck; do
    stage "compute-sanitizer $tool"
    timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $W bench --algo cuda/lookback --param tile=b128x16m5,b128x8m10 \
      --param element=32,128 --param place=out,in --case uniform:100003:p=0.3 --case all:32769 --reps 1 --warmup 0 --warmup-time 0 \
      --out /tmp/san --name $tool 2>&1 | tail -2; echo "rc=$?"
  done
  stage "edge cases: every bulk shape, element, place, store (each record verified)"
  timeout 240 $W bench --algo cuda/lookback --case alternating:4097 --case all:32769 --case none:65537 --case uniform:100003:p=0.3 \
    --case runs:1000003 --case uniform:1:p=1 --case uniform:16M:p=0.5 --param tile=$BULK --param element=32,64,128 \
    --param place=out,in --param store=staged,direct,auto --reps 1 --warmup 0 --warmup-time 0 --out $R --name edges 2>$R/edges.log | tail -1
  stage "timing: uniform 2^24 and 2^28, 10/50/90 %"
  timeout 400 $W bench --suite cuda/bench/lookback_tiles.json --case 'uniform:16M*' --case 'uniform:256M*' \
    --param cuda/lookback:tile=128x16m4,$BULK --param cuda/lookback:wait=sleep --param cuda/lookback:store=staged,direct \
    --param cuda/cub_if:place=out --out $R --name tiles 2>$R/tiles.log | tail -1
  stage done
} 2>&1 | tee $R/log.txt
tar czf $OUT/results4.tgz -C /tmp results4
