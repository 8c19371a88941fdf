#!/usr/bin/env bash
# GPU session 2026-11-23, call 5: after moving the CUDA element helpers into one header
# (cuda/src/kernels/vector.cuh): the whole conformance grid of cuda/billeter and cuda/lookback, the
# CUDA unit tests, and memcheck on both. As run3.sh otherwise.
set -uo pipefail
B=build-carry
. tools/device-env.sh
SAN=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
{
  echo "== conformance: cuda/billeter, cuda/lookback (whole grid); cuda_tests ($(date +%T))"
  WINNOW_CONFORMANCE=full timeout 200 $B/conformance_tests --gtest_brief=1 --gtest_filter='*cuda_billeter_*:*cuda_lookback*' 2>&1 | tail -3
  timeout 60 $B/cuda_tests --gtest_brief=1 2>&1 | tail -3
  for a in billeter lookback; do
    for e in 32 64 128; do
      echo "-- memcheck cuda/$a element=$e"
      timeout 60 $SAN --tool memcheck --error-exitcode 9 $B/winnow run --algo cuda/$a --case uniform:300007:p=0.3 \
        --param element=$e --reps 1 --warmup 0 --warmup-time 0 2>&1 | grep -E "ERROR SUMMARY|result"
    done
  done
  echo "== done ($(date +%T))"
} 2>&1 | tee $OUT/log.txt
