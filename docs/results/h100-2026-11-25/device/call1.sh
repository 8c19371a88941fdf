#!/usr/bin/env bash
# Prepared 2026-11-25 (fifth session, which had no device time left), call 1. The Vulkan fragment path with per-use image layouts
# (attachment-optimal / read-only-optimal instead of GENERAL): its tests and sampled conformance grid
# with the validation layer on, Horn by steps and concat=auto's probe on the three plan paths, then `winnow reproduce cross-api` (calibrate + paths suite on gl,
# vkfrag, vk). Then cuda/lookback's persistent shapes (p*: resident blocks that load the next tile
# into registers while they rank, look back for and store the current one) and the per-tile store
# choice (store=auto): conformance with the persistent shapes' whole grid at the default wait,
# compute-sanitizer on one persistent shape. Call 2 (call2.sh) times them.
# Usage: OUT=... bash docs/results/h100-2026-11-25/device/call1.sh
set -uo pipefail
B=build-carry
R=/tmp/results
mkdir -p $R
. tools/device-env.sh
stage() { echo "== $* ($(date +%T))"; }
{
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
  stage "vulkan_tests and the sampled conformance grid of vkfrag (validation on)"
  timeout 120 $B/vulkan_tests --gtest_brief=1 --gtest_filter=-*abel* 2>&1 | tail -3
  timeout 150 $B/conformance_tests --gtest_brief=1 --gtest_filter='*vkfrag*' 2>&1 | tail -3
  stage "Horn by steps on gl, vkfrag and vk (whole grid), the concatenation and its auto probe, pass for pass"
  WINNOW_CONFORMANCE=full timeout 150 $B/conformance_tests --gtest_brief=1 \
    --gtest_filter='*horn*search_steps*:concatenation.*:shader_era.*' 2>&1 | tail -3
  stage "winnow reproduce cross-api"
  timeout 200 $B/winnow reproduce cross-api --out $R/cross-api 2>&1 | tail -4
  tar czf $OUT/cross-api.tgz -C $R cross-api
  stage "conformance: cuda/lookback sampled grid, then the persistent shapes and store=auto at wait=sleep, whole grid"
  timeout 120 $B/conformance_tests --gtest_brief=1 --gtest_filter='*cuda_lookback*' 2>&1 | tail -3
  WINNOW_CONFORMANCE=full timeout 180 $B/conformance_tests --gtest_brief=1 \
    --gtest_filter='*cuda_lookback*tile_p*wait_sleep*:*cuda_lookback*store_auto*wait_sleep*' 2>&1 | tail -3
  stage "compute-sanitizer (memcheck, racecheck, synccheck) on p128x8m4, 4M and 100003 elements"
  for tool in memcheck racecheck synccheck; do
    for c in 'uniform:4M:p=0.7' 'uniform:100003:p=0.5'; do
      timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $B/winnow run --algo cuda/lookback \
        --param tile=p128x8m4 --param store=auto --case "$c" --reps 2 2>&1 | tail -2
      echo "$tool $c exit ${PIPESTATUS[0]}"
    done
  done
  stage done
} 2>&1 | tee $OUT/log.txt
cp $R/*.jsonl $R/*.status.json $OUT/ 2>/dev/null
