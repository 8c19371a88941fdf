#!/usr/bin/env bash
# Eighth session (2026-11-26), call 2. The traversals' block size and level count compiled into the
# Vulkan pipelines (specialization constants, 958bb6d): Binary-Tree's and the HistoPyramid's conformance
# with the validation layer on; Binary-Tree old (build-carry/winnow-old: 5442c33) beside new on the
# paths suite, the HistoPyramid old beside new on the six images at 4M; `winnow reproduce cross-api`.
# Usage: OUT=... bash call2.sh (build-gz: winnow, winnow-old, conformance_tests gzipped; carried with .gl, .libs)
set -uo pipefail
B=build-carry; mkdir -p $B; for f in build-gz/*.gz; do gunzip -c $f > $B/$(basename $f .gz); chmod +x $B/$(basename $f .gz); done
. tools/device-env.sh
R=/tmp/results; mkdir -p $R
stage() { echo "== $* ($(date +%T))"; }
images() { for i in finger i_finger hand i_hand bunny i_bunny; do echo --case $i:4M; done; }
{
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
  stage "conformance, validation on: Binary-Tree's whole grid, the HistoPyramid, every block size, loop bounds"
  WINNOW_DEBUG=1 WINNOW_CONFORMANCE=full timeout 200 $B/conformance_tests --gtest_brief=1 \
    --gtest_filter='*_bt_*:*histopyramid*:shader_era.*:*loop_bounds*bt*' 2>&1 | tail -3
  for w in winnow-old winnow; do
    stage "$w: paths suite, Binary-Tree"
    timeout 120 $B/$w bench --suite paths --algo gl/bt,vkfrag/bt,vk/bt --out $R --name bt-$w 2>$R/bt-$w.log | tail -1
    stage "$w: the HistoPyramid, six images at 4M"
    timeout 120 $B/$w bench --algo gl/histopyramid,vkfrag/histopyramid $(images) --reps 10 --warmup 2 --out $R --name hp-$w 2>$R/hp-$w.log | tail -1
  done
  stage "winnow reproduce cross-api"
  timeout 240 $B/winnow reproduce cross-api --out $R/cross-api 2>&1 | tail -4
  stage "pipeline statistics of the traversals"
  WINNOW_VK_PIPELINE_STATS=1 timeout 60 $B/winnow bench --algo vkfrag/bt,vkfrag/histopyramid --case finger:1M --reps 1 --warmup 0 --out /tmp/x --name s 2>&1 | grep "_traverse_frag.*FS"
  stage done
} 2>&1 | tee $R/log.txt
tar czf $OUT/results.tgz -C /tmp results
