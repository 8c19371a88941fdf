# Call 4: correctness of the new paths with the validation layer (cuda/lookback's whole grid;
# vk/lookback's grid where store=direct and wait=pause), then cuda/lookback's shapes with store=direct
# and staged at 2^20, 2^24 and 2^28 (50 % valid) beside CUB.
. tools/device-env.sh
export WINNOW_DEBUG=1 WINNOW_CONFORMANCE=full
build-carry/conformance_tests --gtest_filter='*cuda_lookback*:*vk_lookback*store_direct*wait_pause*' --gtest_brief=1 2>&1 | tail -6
unset WINNOW_DEBUG WINNOW_CONFORMANCE
build-carry/winnow bench --suite cuda/bench/targets_lookback.json --api cuda --algo cuda/lookback,cuda/cub_if --case 'uniform:*M:p=0.5' \
  --param cuda/lookback:tile=128x16m3,128x24,256x8m3,128x8m8,64x16 --param cuda/lookback:store=direct,staged \
  --param cuda/lookback:place=out --param cuda/cub_if:place=out \
  --out $OUT --name call4-cuda-tiles 2>&1 | tail -2
python3 - "$OUT/call4-cuda-tiles.jsonl" <<'P'
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r.get("skipped"): continue
    p = r["params"]
    print(r["algorithm"], r["case"][:16], p.get("tile"), p.get("store"), round(r["total"]["median_ns"] / 1e3, 1), "us", r["verified"])
P
