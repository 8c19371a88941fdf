#!/usr/bin/env bash
# GPU machine, part 2: calibration, the issue 5 targets at 2^28, the ballot comparison and the
# moreira suite (gl + vk). Results under $OUT: bench-log.txt and results.tar.gz, refreshed after
# every stage so a run cut short still brings back what finished.
set -uo pipefail
cd "$(dirname "$0")"
export WINNOW_VK_VALIDATION=0
mkdir -p /tmp/r
save() { tar czf $OUT/results.tar.gz -C /tmp/r .; }
{
  ./winnow calibrate --out /tmp/r/calibrate.jsonl
  ./winnow_cuda_copy_bandwidth > /tmp/r/copy.json 2>&1; cat /tmp/r/copy.json
  save
  echo "== targets"
  ./winnow bench --suite ../cuda/bench/targets_redzone.json --cold --out /tmp/r 2>/dev/null | tail -8
  ./winnow bench --suite ../cuda/bench/targets_billeter.json --cold --out /tmp/r 2>/dev/null | tail -14
  save
  echo "== ballot"
  ./winnow bench --suite ballot --out /tmp/r 2>/dev/null | tail -4
  save
  echo "== moreira"
  ./winnow bench --suite moreira --out /tmp/r 2>/dev/null | tail -3
  save
} > $OUT/bench-log.txt 2>&1
tail -45 $OUT/bench-log.txt
