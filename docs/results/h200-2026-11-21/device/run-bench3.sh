#!/usr/bin/env bash
# GPU machine, part 3: both APIs' pass constants, the moreira suite for GL and for Vulkan in separate
# processes (one API per process: no second context on the GPU while the other is timed), Billeter's
# Fig. 4 (n up to 128M, 32/64/128-bit elements) against CUB, and Redzone at n = 2^29 (2 GiB).
set -uo pipefail
cd "$(dirname "$0")"
export WINNOW_VK_VALIDATION=0
mkdir -p /tmp/r3/gl /tmp/r3/vk /tmp/r3/cuda
save() { tar czf $OUT/results3.tar.gz -C /tmp/r3 .; }
{
  ./winnow calibrate --out /tmp/r3/calibrate.jsonl
  echo "== moreira gl"; ./winnow bench --suite moreira --api gl --out /tmp/r3/gl 2>/dev/null | tail -2; save
  echo "== moreira vk"; ./winnow bench --suite moreira --api vk --out /tmp/r3/vk 2>/dev/null | tail -2; save
  ./winnow calibrate --out /tmp/r3/calibrate-after.jsonl
  echo "== billeter fig 4"
  ./winnow bench --suite billeter --algo cuda/billeter,cuda/cub_if --case uniform:1M:p=0.5 --case uniform:16M:p=0.5 \
    --case uniform:64M:p=0.5 --case uniform:128M:p=0.5 --reps 5 --cold --out /tmp/r3/cuda 2>/dev/null | tail -3; save
  echo "== redzone 2 GiB"
  ./winnow bench --suite redzone --algo cuda/redzone2,cuda/cub_if,cuda/thrust_remove_if --case removal:512M:k=0.02 \
    --case removal:512M:k=0.1 --reps 5 --cold --out /tmp/r3/cuda-2g 2>/dev/null | tail -8; save
} > $OUT/bench3-log.txt 2>&1
tail -30 $OUT/bench3-log.txt
