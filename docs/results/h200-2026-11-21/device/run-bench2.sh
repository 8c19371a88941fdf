#!/usr/bin/env bash
# GPU machine, part 3: Redzone 2's batch sweep at 2^28, the redzone suite (Figs. 4-6) and the
# billeter suite's algorithms on Fig. 3's density sweep at 4M and on 64M at 50 %, cold. Results under $OUT, saved per stage.
set -uo pipefail
cd "$(dirname "$0")"
mkdir -p /tmp/r2
save() { tar czf $OUT/results2.tar.gz -C /tmp/r2 .; }
{
  echo "== redzone batch"
  ./winnow bench --suite ../cuda/bench/redzone_batch.json --cold --out /tmp/r2 2>/dev/null | tail -23
  save
  echo "== redzone suite"
  timeout 200 ./winnow bench --suite redzone --reps 5 --cold --out /tmp/r2 2>/tmp/r2/redzone-progress.log | tail -3
  save
  echo "== billeter suite"
  timeout 220 ./winnow bench --suite billeter --case uniform:4M:p=0 --case uniform:4M:p=0.1 --case uniform:4M:p=0.2 --case uniform:4M:p=0.3 --case uniform:4M:p=0.4 --case uniform:4M:p=0.5 --case uniform:4M:p=0.6 --case uniform:4M:p=0.7 --case uniform:4M:p=0.8 --case uniform:4M:p=0.9 --case uniform:4M:p=1 --case uniform:64M:p=0.5 --reps 5 --cold --out /tmp/r2 2>/tmp/r2/billeter-progress.log | tail -3
  save
} > $OUT/bench2-log.txt 2>&1
tail -32 $OUT/bench2-log.txt
