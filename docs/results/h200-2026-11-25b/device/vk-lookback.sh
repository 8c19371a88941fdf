#!/usr/bin/env bash
# GPU session 2026-11-25 (second), issue 13 part 2's Vulkan half: vk/lookback's conformance grid
# (validation layer on), Vulkan's calibration (copy roofline by access width), the tile-shape /
# tile-state / look-back sweep of vulkan/bench/lookback_tiles.json, and the removal-list mark pass
# of vk/ballot and vk/lookback beside CUDA's. From the repository root, with the build in
# build-carry/ and the .debs of tools/device-libs.sh in .gl/ and .libs/.
# Usage: OUT=... bash docs/results/h200-2026-11-25b/device/vk-lookback.sh
set -uo pipefail
B=build-carry
R=/tmp/results
mkdir -p $R
. tools/device-env.sh
stage() { echo "== $* ($(date +%T))"; }
{
  stage device
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv,noheader
  stage "conformance, whole grid: vk/lookback (validation layer on)"
  WINNOW_DEBUG=1 WINNOW_CONFORMANCE=full timeout 300 $B/conformance_tests --gtest_brief=1 --gtest_filter='*vk_lookback*' 2>&1 | tail -4
  stage "repeated: 128-bit at 4M, every state and look-back, 20 times"
  WINNOW_CONFORMANCE=full timeout 120 $B/conformance_tests --gtest_brief=1 --gtest_repeat=20 \
    --gtest_filter='*vk_lookback__element_128_*_tile_256x4__uniform_4M*' 2>&1 | grep -cE '^\[  FAILED .*ms\)$' | sed 's/^/failed runs: /'
  stage "calibrate vk"
  $B/winnow calibrate --api vk 2>&1 | tee $R/calibrate-vk.txt | tail -30
  stage "lookback_tiles (vk)"
  $B/winnow bench --suite vulkan/bench/lookback_tiles.json --api vk --out $R/tiles 2>$R/tiles-progress.log | tail -1
  stage "mark: removal lists on vk and cuda"
  $B/winnow bench --api vk --algo vk/ballot,vk/lookback --case removal:4M:k=0.1 --case removal:16M:k=0.1 \
    --case removal:16M:k=0.02 --reps 10 --warmup 2 --name mark --out $R/mark 2>/dev/null | tail -1
  $B/winnow bench --api cuda --algo cuda/cub_if,cuda/lookback --case removal:4M:k=0.1 --case removal:16M:k=0.1 \
    --case removal:16M:k=0.02 --reps 10 --warmup 2 --name mark-cuda --out $R/mark 2>/dev/null | tail -1
  stage done
} 2>&1 | tee $OUT/log.txt
tar -czf $OUT/results.tar.gz -C $R .
