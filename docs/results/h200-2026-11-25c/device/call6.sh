# Call 6: cuda/lookback with its keep-flags packed as bits (one word per row instead of a bool per
# element: 128x16m3 133 registers instead of 168, 128x16m5 96 without spilling), shapes as in call 5,
# direct stores, beside CUB and vk/lookback's new default at 2^20, 2^24 and 2^28 (50 % valid).
. tools/device-env.sh
build-carry/winnow bench --suite cuda/bench/targets_lookback.json --api cuda,vk --algo cuda/lookback,cuda/cub_if,vk/lookback --case 'uniform:*M:p=0.5' \
  --param cuda/lookback:tile=128x16m3,128x16m4,128x16m5,128x24 --param cuda/lookback:store=direct \
  --param cuda/lookback:place=out --param cuda/cub_if:place=out --param vk/lookback:place=out --param vk/lookback:state=relaxed \
  --out $OUT --name call6-tiles 2>&1 | tail -2
python3 - "$OUT/call6-tiles.jsonl" <<'P'
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r.get("skipped"): continue
    p = r["params"]
    print(r["algorithm"], r["case"][:16], p.get("tile"), p.get("store"), round(r["total"]["median_ns"] / 1e3, 1), "us", r["verified"])
P
