#!/usr/bin/env bash
# GPU session 2026-11-23, call 1 (one device call, ≤ 10 min): the single-pass compactions' tests on the
# GPU (the whole conformance grid for cuda/lookback and vk/lookback, compute-sanitizer), then in one
# run per api: the copy roofline, cuda/bench/targets_lookback.json on cuda and on vk, the Vulkan
# calibration by access width, and what the GL debug context costs (calibrate and the moreira suite
# at 4M, plain and --debug). From the repository root, with the build in build-carry/ and the .debs
# of tools/device-libs.sh in .gl/ and .libs/; writes $OUT/log.txt and $OUT/results.tar.gz.
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
  $B/winnow list | grep -A1 -E '^(gl|vk|cuda) '

  stage "conformance, whole grid: cuda/lookback, vk/lookback (validation on)"
  WINNOW_DEBUG=1 WINNOW_CONFORMANCE=full timeout 150 $B/conformance_tests --gtest_brief=1 \
    --gtest_filter='*cuda_lookback*:*vk_lookback*' 2>&1 | tail -8
  stage "vulkan_tests, cuda_tests"
  WINNOW_DEBUG=1 timeout 60 $B/vulkan_tests --gtest_brief=1 2>&1 | tail -3
  timeout 60 $B/cuda_tests --gtest_brief=1 2>&1 | tail -3

  stage "compute-sanitizer: cuda/lookback"
  for tool in memcheck racecheck synccheck; do
    for e in 32 64 128; do
      for pl in out in; do
        [ $tool != memcheck ] && [ $e != 32 ] && continue
        echo "-- $tool element=$e place=$pl"
        timeout 60 $SAN --tool $tool --error-exitcode 9 $B/winnow run --algo cuda/lookback --case uniform:100003:p=0.3 \
          --param element=$e --param place=$pl --reps 1 --warmup 0 --warmup-time 0 2>&1 | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|result"
      done
    done
  done

  stage "copy roofline (cudaMemcpy device to device)"
  $B/winnow_cuda_copy_bandwidth | tee $R/copy.json
  stage "bench cuda"
  timeout 170 $B/winnow bench --suite cuda/bench/targets_lookback.json --api cuda --out $R/cuda 2>&1 | tail -95
  stage "calibrate vk"
  timeout 60 $B/winnow calibrate --api vk --out $R/calibrate-vk.jsonl
  stage "bench vk"
  timeout 170 $B/winnow bench --suite cuda/bench/targets_lookback.json --api vk --out $R/vk 2>&1 | tail -115

  stage "GL: calibrate and the moreira suite at 4M, on a plain and on a debug context"
  timeout 40 $B/winnow calibrate --api gl --out $R/calibrate-gl-plain.jsonl
  timeout 40 $B/winnow calibrate --api gl --debug --out $R/calibrate-gl-debug.jsonl
  four=(--case finger:4M --case i_finger:4M --case hand:4M --case i_hand:4M --case bunny:4M --case i_bunny:4M)
  timeout 100 $B/winnow bench --suite moreira --api gl "${four[@]}" --out $R/gl-plain 2>&1 | tail -3
  timeout 100 $B/winnow bench --suite moreira --api gl --debug "${four[@]}" --out $R/gl-debug 2>&1 | tail -3
  stage done
} 2>&1 | tee $OUT/log.txt
tar czf $OUT/results.tar.gz -C $R .
