#!/usr/bin/env bash
# GPU session 2026-11-23, call 3 (≤ 10 min): the Vulkan fragment path (api vkfrag) on the GPU — its
# whole conformance grid with validation, the concatenation test and the cross-API plan tests — and
# compute-sanitizer on cuda/lookback as committed (one tile per block); then, one process per api,
# `winnow calibrate` and the paths suite (tools/winnow/suites/paths.json) on gl, vkfrag and vk, and
# traces of the four shader-era algorithms on every path on a photograph (build-carry/grace_hopper_512.png:
# the top 512 × 512 of matplotlib's sample grace_hopper.jpg, greyscale). From the repository root;
# build in build-carry/, .debs of tools/device-libs.sh in .gl/ and .libs/; writes $OUT/log.txt and
# $OUT/results.tar.gz.
set -uo pipefail
B=build-carry
R=/tmp/results
mkdir -p $R
. tools/device-env.sh
SAN=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
stage() { echo "== $* ($(date +%T))"; }
{
  stage device
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv
  $B/winnow list | grep -A1 -E '^(gl|vk|vkfrag|cuda) '

  stage "conformance: vkfrag whole grid, concatenation, shader-era plan tests (validation on)"
  WINNOW_DEBUG=1 WINNOW_CONFORMANCE=full timeout 170 $B/conformance_tests --gtest_brief=1 \
    --gtest_filter='*vkfrag*:concatenation.*:shader_era.*' 2>&1 | tail -8
  stage "cuda/lookback: conformance (whole grid), compute-sanitizer"
  WINNOW_CONFORMANCE=full timeout 60 $B/conformance_tests --gtest_brief=1 --gtest_filter='*cuda_lookback*' 2>&1 | tail -3
  for tool in memcheck racecheck synccheck; do
    for e in 32 64 128; do
      for pl in out in; do
        [ $tool != memcheck ] && [ $e != 32 ] && continue
        echo "-- $tool element=$e place=$pl"
        timeout 60 $SAN --tool $tool --error-exitcode 9 $B/winnow run --algo cuda/lookback --case uniform:300007:p=0.3 \
          --param element=$e --param place=$pl --reps 1 --warmup 0 --warmup-time 0 2>&1 |
          grep -E "ERROR SUMMARY|RACECHECK SUMMARY|result"
      done
    done
  done

  stage "calibrate, one process per api"
  for api in gl vkfrag vk; do
    timeout 60 $B/winnow calibrate --api $api --out $R/calibrate-$api.jsonl 2>&1 | grep -E "empty_pass|copy_bytes_per_ns_(4|16)M |roofline"
  done
  cat $R/calibrate-*.jsonl > $R/calibrate.jsonl
  stage "paths suite, one process per api"
  for api in gl vkfrag vk; do
    timeout 100 $B/winnow bench --suite paths --api $api --out $R/paths-$api 2>&1 | tail -2
  done
  python3 tools/report/cross_api.py $R && cat $R/cross_api.md

  stage "traces on a photograph"
  for api in gl vkfrag vk; do
    for a in horn jj rlz bt; do
      timeout 30 $B/winnow trace --algo $api/$a --case file:$B/grace_hopper_512.png:threshold=128 --out $R/trace/$api-$a 2>&1 | tail -1
    done
  done
  stage done
} 2>&1 | tee $OUT/log.txt
tar czf $OUT/results.tar.gz -C $R .
ls -la $OUT
