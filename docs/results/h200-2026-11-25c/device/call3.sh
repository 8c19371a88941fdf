# Call 3: as call 2 with wait=pause only and tiles 256x4, 128x8, 64x16, 128x16; the staging array is
# now sized by the store axis (store=direct reserves no shared memory).
# Also cuda/lookback at the same sizes for the ratio in the same run.
. tools/device-env.sh
set -x
W=build-carry/winnow
for tile in 256x4 128x8 64x16 128x16; do for st in staged direct; do
  WINNOW_VK_PIPELINE_STATS=1 $W run --algo vk/lookback --case uniform:64K --param tile=$tile --param store=$st --param wait=pause 2>&1 | grep "winnow::vk::pipeline"
done; done
$W bench --suite vulkan/bench/lookback_tiles.json --api vk --algo vk/lookback \
  --param vk/lookback:tile=256x4,128x8,64x16,128x16 --param vk/lookback:state=relaxed --param vk/lookback:lookback=one \
  --param vk/lookback:store=staged,direct --param vk/lookback:wait=pause --out $OUT --name call3-tiles 2>&1 | tail -5
python3 - "$OUT/call3-tiles.jsonl" <<'P'
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r.get("skipped") or "M" not in r["case"]: continue
    p = r["params"]
    print(r["case"][:16], p["tile"], p["store"], p["wait"], round(r["total"]["median_ns"] / 1e3, 1), "us", r["verified"])
P
for n in 16M 256M; do $W run --algo cuda/lookback --case uniform:$n:p=0.5 --warmup-time 1000 2>&1 | grep -E "^total"; done
