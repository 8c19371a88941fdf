# Call 9: direct against staged stores at 90 % valid (where call 8 found direct slower on CUDA) and
# 50 %, both APIs, 2^24 and 2^28, default shapes (cuda 128x16m4, vk 128x16).
. tools/device-env.sh
build-carry/winnow bench --suite cuda/bench/targets_lookback.json --api cuda,vk --algo cuda/lookback,vk/lookback \
  --case 'uniform:16M:p=0.9' --case 'uniform:256M:p=0.9' --case 'uniform:256M:p=0.5' \
  --param cuda/lookback:store=direct,staged --param cuda/lookback:place=out \
  --param vk/lookback:store=direct,staged --param vk/lookback:place=out --param vk/lookback:state=relaxed \
  --out $OUT --name call9-stores 2>&1 | tail -1
python3 - "$OUT/call9-stores.jsonl" <<'P'
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r.get("skipped"): continue
    p = r["params"]
    print(r["algorithm"], r["case"][:18], p.get("store"), round(r["total"]["median_ns"] / 1e3, 1), "us", r["verified"])
P
