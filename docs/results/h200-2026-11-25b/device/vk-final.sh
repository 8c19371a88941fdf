#!/usr/bin/env bash
# GPU session 2026-11-25 (second), call 5: vk/lookback with its new defaults (state=relaxed,
# lookback=one, tile=256x4) and resets by device copy: the row loops unrolled by attribute
# (build-carry/winnow) against the same without (build-carry/winnow-base); then the target
# suites on vk and cuda (1 s of warm-up per record, then on while the runs still get faster) and the
# conformance grids of vk/lookback and vk/ballot with the validation layer.
# Usage: OUT=... bash docs/results/h200-2026-11-25b/device/vk-final.sh
set -uo pipefail
B=build-carry
R=/tmp/results
mkdir -p $R
. tools/device-env.sh
stage() { echo "== $* ($(date +%T))"; }
{
  for bin in winnow-base winnow; do
    stage "A/B $bin: vk/lookback relaxed, one, 256x4 and 256x8 at 16M and 256M"
    $B/$bin bench --suite vulkan/bench/lookback_tiles.json --api vk --case 'uniform:*M:p=0.5' --algo vk/lookback \
      --param vk/lookback:tile=256x4,256x8 --param vk/lookback:state=relaxed --param vk/lookback:lookback=one \
      --out $R/ab --name tiles-$bin 2>/dev/null | tail -1
  done
  stage "targets_lookback (vk, cuda)"
  $B/winnow bench --suite cuda/bench/targets_lookback.json --api vk --out $R/targets 2>$R/targets-progress.log | tail -1
  $B/winnow bench --suite cuda/bench/targets_lookback.json --api cuda --out $R/targets --name targets_lookback_cuda 2>>$R/targets-progress.log | tail -1
  stage "targets_lookback_wide (vk, cuda)"
  $B/winnow bench --suite cuda/bench/targets_lookback_wide.json --api vk --out $R/targets 2>>$R/targets-progress.log | tail -1
  $B/winnow bench --suite cuda/bench/targets_lookback_wide.json --api cuda --out $R/targets --name targets_lookback_wide_cuda 2>>$R/targets-progress.log | tail -1
  stage "conformance, whole grids: vk/lookback, vk/ballot (validation layer on)"
  WINNOW_DEBUG=1 WINNOW_CONFORMANCE=full timeout 230 $B/conformance_tests --gtest_brief=1 --gtest_filter='*vk_lookback*:*vk_ballot*' 2>&1 | tail -4
  stage done
} 2>&1 | tee $OUT/log.txt
tar -czf $OUT/results.tar.gz -C $R .
