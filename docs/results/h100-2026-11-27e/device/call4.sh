#!/usr/bin/env bash
# EXPERIMENT (2026-11-27e), call 4: concat=pairs generalized to stacks of G = 2, 4, 8, 16 rows
# (stack/concat_stack.{vert,frag}, compiled with -DLG=log2 G into exp/spv/stackLG/concat_{vert,frag}.spv
# and loaded by WINNOW_VK_SPIRV_DIR in place of pairs' shaders; WINNOW_EXP_STACK=G reads the output
# back in that layout): 35bd6af with stack-experiment.patch. Vulkan fragment path, six images at 4M.
# Carry build-gz2 (the patched winnow, xz) .gl .libs exp/spv: `bash docs/results/h100-2026-11-27e/device/call4.sh`.
set -uo pipefail
. tools/device-env.sh
B=build-carry; mkdir -p $B
python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" build-gz2/winnow-stack.xz $B/winnow-stack
chmod +x $B/winnow-stack
R=call4; mkdir -p $R
summary() { python3 - "$@" <<'PY'
import json, sys
for f in sys.argv[1:]:
    rs = [json.loads(l) for l in open(f)]
    ph = {}
    for r in rs:
        for p in r["phases"]: ph.setdefault(p["name"], []).append(p["median_ns"])
        ph.setdefault("total", []).append(r["total"]["median_ns"])
    bad = sum(not r["verified"] for r in rs)
    print(f.split("/")[-1], len(rs), "records,", bad, "failed;", "  ".join(f"{k} {sum(v) / len(v) / 1e3:.1f}" for k, v in ph.items()), "(µs, mean)")
PY
}
pb() { local name=$1 algo=$2 block=$3; shift 3
  env "$@" timeout 90 $B/winnow-stack bench --suite paths --algo $algo --case '*:4M' --param block=$block --out $R --name $name > $R/$name.log 2>&1
  summary $R/$name.jsonl
}
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  for blk in 512 128; do
    pb bt-pairs-$blk vkfrag/bt $blk
    for lg in 1 2 3 4; do pb bt-stack$lg-$blk vkfrag/bt $blk WINNOW_EXP_STACK=$((1 << lg)) WINNOW_VK_SPIRV_DIR=exp/spv/stack$lg; done
  done
  pb horn-pairs-128 vkfrag/horn 128; pb horn-stack3-128 vkfrag/horn 128 WINNOW_EXP_STACK=8 WINNOW_VK_SPIRV_DIR=exp/spv/stack3
} 2>&1 | tee $R/log.txt
tar czf $OUT/call4.tgz $R
