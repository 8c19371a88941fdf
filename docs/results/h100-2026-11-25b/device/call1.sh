#!/usr/bin/env bash
# Seventh session (2026-11-25), call 1. Binary-Tree's traversal now descends two levels per step
# (half the chain of dependent fetches): its whole conformance grid on gl, vkfrag and vk, every block
# size and the loop bounds; then the paths suite's Binary-Tree runs with the binary from before the
# change (build-carry/winnow-old, b5177de) and `winnow reproduce cross-api` with the new one, on the
# same card in the same call. Then what the session before prepared (then next-device-run/device/call1.sh,
# since folded into this script): cuda/redzone1/2 appending a case's gains
# (§4.6): conformance on the gains cases and the redzone suite's four 16M cases against CUB.
# Usage: OUT=... bash docs/results/h100-2026-11-25b/device/call1.sh (build-gz: the four binaries gzipped, carried with .gl and .libs)
set -uo pipefail
B=build-carry
if [ -d build-gz ]; then mkdir -p $B && for f in build-gz/*.gz; do gunzip -c $f > $B/$(basename $f .gz); chmod +x $B/$(basename $f .gz); done; fi
R=/tmp/results
mkdir -p $R
. tools/device-env.sh
stage() { echo "== $* ($(date +%T))"; }
{
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
  stage "Binary-Tree: whole conformance grid on gl, vkfrag, vk; every block size; loop bounds; vulkan_tests"
  WINNOW_CONFORMANCE=full timeout 150 $B/conformance_tests --gtest_brief=1 \
    --gtest_filter='*_bt_*:shader_era.*:*loop_bounds*bt*' 2>&1 | tail -3
  timeout 90 $B/vulkan_tests --gtest_brief=1 --gtest_filter=-*abel* 2>&1 | tail -2
  stage "paths suite, Binary-Tree only, the one-level walk (b5177de)"
  timeout 120 $B/winnow-old bench --suite paths --algo gl/bt,vkfrag/bt,vk/bt --out $R --name bt-old 2>$R/bt-old.log | tail -1
  stage "winnow reproduce cross-api (the two-level walk)"
  timeout 200 $B/winnow reproduce cross-api --out $R/cross-api 2>&1 | tail -4
  tar czf $OUT/cross-api.tgz -C $R cross-api
  stage "conformance: every cuda algorithm on the gains cases (removal:…:g=…)"
  timeout 120 $B/conformance_tests --gtest_brief=1 --gtest_filter='*cuda*_g_0_*' 2>&1 | tail -3
  stage "§4.6 at 16M: redzone2 (default and as published) and CUB, 3 seeds, with the append timed"
  timeout 200 $B/winnow bench --suite redzone --api cuda --algo cuda/redzone2,cuda/cub_if --seeds 3 \
    --case 'removal:16M:k=0.02:g=0.01' --case 'removal:16M:k=0.02:g=0.1' --case 'removal:16M:k=0.1:g=0.01' \
    --case 'removal:16M:k=0.1:g=0.1' --out $R --name gains 2>$R/gains-progress.log | tail -1
  stage done
} 2>&1 | tee $OUT/log.txt
cp $R/*.jsonl $R/*.status.json $OUT/ 2>/dev/null
