#!/usr/bin/env bash
# GPU session 2026-11-25 (third), call 8: the new defaults — vk/lookback tile=128x16 store=direct
# wait=pause; cuda/lookback tile=128x16m4 store=direct, keep-flags as bits — through the issue's
# target suites on vk and cuda (1 s of warm-up per record, then on while the runs still get faster),
# then cuda/lookback's whole conformance grid with its new shapes (validation layer on for vk).
# Usage: OUT=... bash docs/results/h200-2026-11-25c/device/call8.sh
set -uo pipefail
B=build-carry
R=/tmp/results
mkdir -p $R
. tools/device-env.sh
stage() { echo "== $* ($(date +%T))"; }
{
  stage "targets_lookback (vk, cuda)"
  $B/winnow bench --suite cuda/bench/targets_lookback.json --api vk --out $R --name targets_lookback_vk 2>$R/targets-progress.log | tail -1
  $B/winnow bench --suite cuda/bench/targets_lookback.json --api cuda --out $R --name targets_lookback_cuda 2>>$R/targets-progress.log | tail -1
  stage "targets_lookback_wide (vk, cuda)"
  $B/winnow bench --suite cuda/bench/targets_lookback_wide.json --api vk --out $R --name targets_lookback_wide_vk 2>>$R/targets-progress.log | tail -1
  $B/winnow bench --suite cuda/bench/targets_lookback_wide.json --api cuda --out $R --name targets_lookback_wide_cuda 2>>$R/targets-progress.log | tail -1
  stage "conformance, whole grid: cuda/lookback"
  WINNOW_CONFORMANCE=full timeout 200 $B/conformance_tests --gtest_brief=1 --gtest_filter='*cuda_lookback*' 2>&1 | tail -4
  stage done
} 2>&1 | tee $OUT/log.txt
cp $R/*.jsonl $OUT/
