#!/usr/bin/env bash
# GPU session 2026-11-23, call 6, after the review: the fragment executor builds its attachments at
# prepare, and the Vulkan compute constants are measured through the compute executor as GL's and
# vkfrag's are. The sampled conformance grid of vkfrag and vk with the concatenation and plan tests
# (debug contexts on), then `winnow calibrate` per api, to compare with run 3. As run3.sh otherwise.
set -uo pipefail
B=build-carry
. tools/device-env.sh
{
  echo "== conformance (sampled): vkfrag, vk shader-era, concatenation, plan tests ($(date +%T))"
  WINNOW_DEBUG=1 timeout 120 $B/conformance_tests --gtest_brief=1 \
    --gtest_filter='*vkfrag*:*vk_horn*:*vk_jj*:*vk_rlz*:*vk_bt*:concatenation.*:shader_era.*' 2>&1 | tail -3
  for api in gl vkfrag vk; do
    echo "== calibrate --api $api ($(date +%T))"
    timeout 60 $B/winnow calibrate --api $api 2>&1 | grep -E "empty_pass|copy_bytes_per_ns_(4|16)M(_items4)? |roofline"
  done
  echo "== done ($(date +%T))"
} 2>&1 | tee $OUT/log.txt
