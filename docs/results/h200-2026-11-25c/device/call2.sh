# Call 2: vk/lookback's new axes — store (staged through shared memory, or direct) and wait (spin,
# or pause on the subgroup clock) — over four tile shapes at 2^24 and 2^28, 50 % valid, with the
# edge cases of the suite; the pipelines' statistics (registers, shared memory) of each.
. tools/device-env.sh
set -x
W=build-carry/winnow
for tile in 256x4 256x8 128x8 128x16; do for st in staged direct; do
  WINNOW_VK_PIPELINE_STATS=1 $W run --algo vk/lookback --case uniform:64K --param tile=$tile --param store=$st --param wait=pause 2>&1 | grep "winnow::vk::pipeline"
done; done
$W bench --suite vulkan/bench/lookback_tiles.json --api vk --algo vk/lookback \
  --param vk/lookback:tile=256x4,256x8,128x8,128x16 --param vk/lookback:state=relaxed --param vk/lookback:lookback=one \
  --param vk/lookback:store=staged,direct --param vk/lookback:wait=spin,pause --out $OUT --name call2-tiles 2>&1 | tail -5
python3 - "$OUT/call2-tiles.jsonl" <<'P'
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r.get("skipped") or "M" not in r["case"]: continue
    p = r["params"]
    print(r["case"][:16], p["tile"], p["store"], p["wait"], round(r["total"]["median_ns"] / 1e3, 1), "us", r["verified"])
P
