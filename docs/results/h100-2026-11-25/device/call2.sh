#!/usr/bin/env bash
# Prepared 2026-11-25 (fifth session, which had no device time left), call 2: cuda/lookback, every tile shape (the default 128x16m4 and
# the persistent p*) × store (staged, direct, auto) at 2^24 and 2^28, 10 / 50 / 90 % valid, beside
# cub::DeviceSelect::If, in one process (the target suite's warm-up and repetitions).
# Usage: OUT=... bash docs/results/h100-2026-11-25/device/call2.sh
set -uo pipefail
B=build-carry
R=/tmp/results
mkdir -p $R
. tools/device-env.sh
stage() { echo "== $* ($(date +%T))"; }
{
  stage "shapes x stores at 2^24 and 2^28 (one process)"
  timeout -s TERM 540 $B/winnow bench --suite cuda/bench/targets_lookback.json --api cuda --algo cuda/lookback,cuda/cub_if \
    --case 'uniform:16M:p=0.1' --case 'uniform:16M:p=0.5' --case 'uniform:16M:p=0.9' \
    --case 'uniform:256M:p=0.1' --case 'uniform:256M:p=0.5' --case 'uniform:256M:p=0.9' \
    --param cuda/lookback:tile=128x16m4,p128x8m4,p128x8m5,p128x16m2,p128x16m3,p256x4m2 \
    --param cuda/lookback:store=staged,direct,auto --param cuda/lookback:place=out --param cuda/cub_if:place=out \
    --out $R --name shapes 2>$R/shapes-progress.log | tail -1
  python3 - "$R/shapes.jsonl" <<'P'
import json, sys
rows = {}
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r.get("skipped"): continue
    p = r["params"]
    key = r["algorithm"] + " " + p.get("tile", "") + " " + p.get("store", "")
    rows.setdefault(key, {})[r["case"]] = (round(r["total"]["median_ns"] / 1e3, 1), r["verified"])
cases = sorted({c for v in rows.values() for c in v})
print("algo", *cases)
for k, v in rows.items(): print(k, *[v.get(c) for c in cases])
P
  stage done
} 2>&1 | tee $OUT/log.txt
cp $R/*.jsonl $R/*.status.json $OUT/ 2>/dev/null
