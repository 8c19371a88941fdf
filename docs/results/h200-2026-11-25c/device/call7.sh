# Call 7: as call 6, with plain stores in cuda/lookback store=direct instead of __stcs (evict-first: a
# line that scattered stores fill in parts should stay in L2 until it is whole).
# Same shapes and cases.
. tools/device-env.sh
build-carry/winnow bench --suite cuda/bench/targets_lookback.json --api cuda,vk --algo cuda/lookback,cuda/cub_if,vk/lookback --case 'uniform:*M:p=0.5' \
  --param cuda/lookback:tile=128x16m3,128x16m4,128x16m5,128x24 --param cuda/lookback:store=direct \
  --param cuda/lookback:place=out --param cuda/cub_if:place=out --param vk/lookback:place=out --param vk/lookback:state=relaxed \
  --out $OUT --name call7-tiles 2>&1 | tail -2
python3 - "$OUT/call7-tiles.jsonl" <<'P'
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r.get("skipped"): continue
    p = r["params"]
    print(r["algorithm"], r["case"][:16], p.get("tile"), p.get("store"), round(r["total"]["median_ns"] / 1e3, 1), "us", r["verified"])
P
