#!/usr/bin/env bash
# GPU session 2026-11-23, call 2 (≤ 10 min): cuda/lookback with persistent prefetching blocks — the
# whole conformance grid of both single-pass compactions, compute-sanitizer on the new kernel — then
# cuda/bench/targets_lookback*.json on cuda and on vk (one process each), what four words per
# invocation buy the Vulkan shader-era passes (vulkan/bench/items.json), and traces of the eight
# shader-era algorithms on a photograph (build-carry/grace_hopper_512.png: the top 512 × 512 of
# matplotlib's sample grace_hopper.jpg, greyscale). From the repository root; build in build-carry/,
# .debs of tools/device-libs.sh in .gl/ and .libs/; writes $OUT/log.txt and $OUT/results.tar.gz.
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
  stage "conformance, whole grid: cuda/lookback, vk/lookback (validation on)"
  WINNOW_DEBUG=1 WINNOW_CONFORMANCE=full timeout 150 $B/conformance_tests --gtest_brief=1 \
    --gtest_filter='*cuda_lookback*:*vk_lookback*:*shader_era*' 2>&1 | tail -8
  stage "compute-sanitizer: cuda/lookback prefetch=on"
  for tool in memcheck racecheck synccheck; do
    for e in 32 64 128; do
      for pl in out in; do
        [ $tool != memcheck ] && [ $e != 32 ] && continue
        echo "-- $tool element=$e place=$pl"
        timeout 60 $SAN --tool $tool --error-exitcode 9 $B/winnow run --algo cuda/lookback --case uniform:300007:p=0.3 \
          --param element=$e --param place=$pl --param prefetch=on --reps 1 --warmup 0 --warmup-time 0 2>&1 |
          grep -E "ERROR SUMMARY|RACECHECK SUMMARY|result"
      done
    done
  done
  stage "copy roofline"
  $B/winnow_cuda_copy_bandwidth | tee $R/copy.json
  stage "bench cuda"
  timeout 150 $B/winnow bench --suite cuda/bench/targets_lookback.json --api cuda --out $R/cuda 2>&1 | tail -75
  timeout 40 $B/winnow bench --suite cuda/bench/targets_lookback_wide.json --api cuda --out $R/cuda 2>&1 | tail -6
  stage "bench vk"
  timeout 150 $B/winnow bench --suite cuda/bench/targets_lookback.json --api vk --out $R/vk 2>&1 | tail -55
  timeout 60 $B/winnow bench --suite cuda/bench/targets_lookback_wide.json --api vk --out $R/vk 2>&1 | tail -6
  timeout 60 $B/winnow bench --suite vulkan/bench/items.json --out $R/vk 2>&1 | tail -36
  stage "traces on a photograph"
  for api in gl vk; do
    for a in horn jj rlz bt; do
      timeout 30 $B/winnow trace --algo $api/$a --case file:$B/grace_hopper_512.png --out $R/trace/$api-$a 2>&1 | tail -1
    done
  done
  stage done
} 2>&1 | tee $OUT/log.txt
tar czf $OUT/results.tar.gz -C $R .
ls -la $OUT
