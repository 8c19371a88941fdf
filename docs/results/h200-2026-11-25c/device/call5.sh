# Call 5: cuda/lookback with direct stores and more resident blocks (128x16m4, m5; 128x24m3) beside
# the shapes of call 4, at 2^24 and 2^28 (50 % valid), and CUB.
. tools/device-env.sh
build-carry/winnow bench --suite cuda/bench/targets_lookback.json --api cuda --algo cuda/lookback,cuda/cub_if --case 'uniform:*M:p=0.5' \
  --param cuda/lookback:tile=128x16m3,128x16m4,128x16m5,128x24,128x24m3 --param cuda/lookback:store=direct \
  --param cuda/lookback:place=out --param cuda/cub_if:place=out \
  --out $OUT --name call5-cuda-tiles 2>&1 | tail -2
python3 - "$OUT/call5-cuda-tiles.jsonl" <<'P'
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r.get("skipped"): continue
    p = r["params"]
    print(r["algorithm"], r["case"][:16], p.get("tile"), p.get("store"), round(r["total"]["median_ns"] / 1e3, 1), "us", r["verified"])
P
