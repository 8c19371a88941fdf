#!/usr/bin/env bash
# GPU session 2026-11-23, call 4: Binary-Tree's traversal with its levels written out (constant
# sampler indices on the graphics paths) — its whole conformance grid on gl, vkfrag and vk with
# debug contexts on, then `winnow calibrate` and the paths suite for gl/bt, vkfrag/bt, vk/bt (one
# process per api) and the cross-API table. As run3.sh otherwise.
set -uo pipefail
B=build-carry
R=/tmp/results
mkdir -p $R
. tools/device-env.sh
stage() { echo "== $* ($(date +%T))"; }
{
  stage "conformance: bt, whole grid, every path (debug contexts on)"
  WINNOW_DEBUG=1 WINNOW_CONFORMANCE=full timeout 120 $B/conformance_tests --gtest_brief=1 \
    --gtest_filter='*_bt*:shader_era.*' 2>&1 | tail -3
  stage "calibrate and the paths suite for bt, one process per api"
  for api in gl vkfrag vk; do
    timeout 60 $B/winnow calibrate --api $api --out $R/calibrate-$api.jsonl 2>&1 | grep -E "empty_pass|copy_bytes_per_ns_4M "
    timeout 100 $B/winnow bench --suite paths --algo $api/bt --out $R/$api 2>&1 | tail -1
  done
  cat $R/calibrate-*.jsonl > $R/calibrate.jsonl
  python3 tools/report/cross_api.py $R && cat $R/cross_api.md
  stage done
} 2>&1 | tee $OUT/log.txt
tar czf $OUT/results.tar.gz -C $R .
