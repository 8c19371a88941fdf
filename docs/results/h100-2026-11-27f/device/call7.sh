#!/usr/bin/env bash
# 2026-11-27f, call 7: the adaptive algorithm's own concat (0d6c391: every candidate concatenates as told, default
# stacks on the fragment paths, where it drew the paper's lines before). Its conformance tests with the validation
# layer on, on gl, vkfrag and vk; and on the six images at 4M, the adaptive algorithm with concat=auto beside stacks.
# Carry build-gz2 (winnow and conformance_tests of the head, xz) .gl .libs: `bash docs/results/h100-2026-11-27f/device/call7.sh`.
set -uo pipefail
. tools/device-env.sh
B=build-carry; mkdir -p $B
for n in winnow conformance_tests; do
  python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" build-gz2/$n.xz $B/$n-head
  chmod +x $B/$n-head
done
R=call7; mkdir -p $R
trap 'tar czf $OUT/call7.tgz $R; exit 143' TERM
{
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
  $B/winnow-head --version
  echo "== conformance of the adaptive algorithm, validation on ($(date +%T))"
  WINNOW_DEBUG=1 timeout 200 $B/conformance_tests-head --gtest_brief=1 --gtest_filter='*adaptive*' 2>&1 | tail -3
  for api in gl vkfrag; do
    echo "== $api/adaptive, concat auto and stacks, 4M ($(date +%T))"
    timeout 120 $B/winnow-head bench --suite paths --api $api --algo $api/adaptive --case '*:4M' --param 'concat=auto,stacks' \
      --out $R --name $api-adaptive-concat 2>$R/$api-adaptive-concat.log | tail -1
  done
  echo "== done ($(date +%T))"
} 2>&1 | tee $R/log.txt
tar czf $OUT/call7.tgz $R
