#!/usr/bin/env bash
# EXPERIMENT call 3: with the steps compiled in, do the texel addresses' shifts cost? v7/v8 also fix the
# stream's and pyramid's widths (4M: 2048 wide) — valid at 4M only.
set -uo pipefail
B=build-carry; mkdir -p $B; for f in build-gz/winnow-old.gz; do gunzip -c $f > $B/$(basename $f .gz); chmod +x $B/$(basename $f .gz); done
. tools/device-env.sh
R=/tmp/results3; mkdir -p $R
W=$B/winnow-old
bench() { local name=$1 algo=$2 block=$3; shift 3; "$@" timeout 60 $W bench --suite paths --algo $algo --case '*:4M' --param block=$block --out $R --name $name 2>$R/$name.err | tail -1; }
{
  bench gl128 gl/bt 128 env
  for v in v2 v6 v7 v8 v2; do echo "== $v"; bench $v-128-$RANDOM vkfrag/bt 128 env WINNOW_VK_SPIRV_DIR=exp/spv/$v; done
  for v in v7 v8; do WINNOW_VK_SPIRV_DIR=exp/spv/$v WINNOW_VK_PIPELINE_STATS=1 timeout 60 $W bench --suite paths --algo vkfrag/bt --case 'finger:4M' --param block=128 --reps 1 --warmup 0 --out /tmp/x --name s 2>&1 | grep "bt_traverse.*FS"; done
} 2>&1 | tee $R/log.txt
tar czf $OUT/results3.tgz -C /tmp results3
