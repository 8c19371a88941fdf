#!/usr/bin/env bash
# EXPERIMENT (2026-11-27e): Binary-Tree's traversal on the Vulkan fragment path with its outputs laid
# out as tiles TW fragments wide and B / TW high, one block per tile, so that a warp's fragments share
# one block (t0: the row layout of the embedded shader, recompiled). Timing only: the concatenation
# still reads rows, so every tiled record fails verification by design. The shaders are loaded by
# WINNOW_VK_SPIRV_DIR, the patch of docs/results/h200-2026-11-26/variants/spirv-override.patch applied
# to b524542's binary; exp/spv/tTW/bt_traverse_frag.spv compiled from tiles.frag (beside this script).
set -uo pipefail
. tools/device-env.sh
R=/tmp/results; mkdir -p $R
W=build-carry/winnow
bench() { local name=$1 algo=$2 block=$3; shift 3; "$@" timeout 90 $W bench --suite paths --algo $algo --case '*:4M' --param block=$block --out $R --name $name 2>$R/$name.err | tail -1; }
{
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
  for B in 128 512; do
    bench gl-$B gl/bt $B env
    bench base-$B vkfrag/bt $B env
    for v in t0 t4 t8 t16 t32; do echo "== $v B=$B"; bench $v-$B vkfrag/bt $B env WINNOW_VK_SPIRV_DIR=exp/spv/$v; done
  done
} 2>&1 | tee $OUT/log.txt
cp $R/* $OUT/ 2>/dev/null
