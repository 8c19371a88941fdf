#!/usr/bin/env bash
# EXPERIMENT (2026-11-26): Binary-Tree's traversal on the Vulkan fragment path, variants of its shader
# loaded by WINNOW_VK_SPIRV_DIR (a patch of this experiment's binary only), beside GL's.
set -uo pipefail
B=build-carry; mkdir -p $B; for f in build-gz/*.gz; do gunzip -c $f > $B/$(basename $f .gz); chmod +x $B/$(basename $f .gz); done
. tools/device-env.sh
R=/tmp/results; mkdir -p $R
W=$B/winnow
bench() { local name=$1 algo=$2 block=$3; shift 3; "$@" timeout 60 $W bench --suite paths --algo $algo --case '*:4M' --param block=$block --out $R --name $name 2>$R/$name.err | tail -1; }
{
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
  bench gl128 gl/bt 128 env
  bench base128 vkfrag/bt 128 env
  for v in v0 v1 v2 v3 v4 v5 v6; do echo "== $v"; bench $v-128 vkfrag/bt 128 env WINNOW_VK_SPIRV_DIR=exp/spv/$v; done
  for v in v0 v1 v3 v4; do echo "== $v 512"; bench $v-512 vkfrag/bt 512 env WINNOW_VK_SPIRV_DIR=exp/spv/$v; done
  bench gl512 gl/bt 512 env
  bench base128b vkfrag/bt 128 env
  echo "== statistics"
  for v in v0 v1 v2 v3 v4 v5 v6; do echo "-- $v"; WINNOW_VK_SPIRV_DIR=exp/spv/$v WINNOW_VK_PIPELINE_STATS=1 timeout 60 $W bench --suite paths --algo vkfrag/bt --case 'finger:1M' --param block=128 --reps 1 --warmup 0 --out /tmp/x --name s 2>&1 | grep -i "bt_traverse\|traverse" | head -4; done
  WINNOW_VK_PIPELINE_STATS=1 timeout 60 $W bench --algo vkfrag/histopyramid --case 'uniform:1M:p=0.5' --reps 1 --warmup 0 --out /tmp/x --name s 2>&1 | grep -i "hp_traverse" | head -4
} 2>&1 | tee $OUT/log.txt
cp $R/* $OUT/ 2>/dev/null
