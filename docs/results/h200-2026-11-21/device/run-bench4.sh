#!/usr/bin/env bash
# GPU machine, part 4: the moreira suite for one API ($1 = gl or vk) with a 200 ms warm-up per
# record (the GPU drops to idle clocks while the host generates each case), after a calibration.
set -uo pipefail
cd "$(dirname "$0")"
export WINNOW_VK_VALIDATION=0
mkdir -p /tmp/r4/$1
./winnow calibrate --api $1 --out /tmp/r4/$1/calibrate.jsonl
./winnow bench --suite moreira --api $1 --warmup-time 200 --out /tmp/r4/$1 2>/dev/null | tail -2
tar czf $OUT/results4-$1.tar.gz -C /tmp/r4 .
