#!/usr/bin/env bash
# 2026-11-27e, call 5: concat=stacks as committed (57720ec), the default on gl and vkfrag. The fragment
# paths' conformance with the validation layer on (the suite's sampled grid, the concatenation's
# start-and-length check of every method, the shader-era tests); every fragment algorithm on GL with
# lines beside stacks at 4M; `winnow reproduce cross-api` (issue 11's ratios against the pass model).
# Carry build-gz2 (winnow and conformance_tests, xz) .gl .libs: `bash docs/results/h100-2026-11-27e/device/call5.sh`.
set -uo pipefail
. tools/device-env.sh
B=build-carry; mkdir -p $B
for n in winnow conformance_tests; do
  python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" build-gz2/$n.xz $B/$n-stacks
  chmod +x $B/$n-stacks
done
R=call5; mkdir -p $R
pack() { tar czf $OUT/call5.tgz $R; }
trap 'pack; exit 143' TERM
stage() { echo "== $* ($(date +%T))"; }
{
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
  $B/winnow-stacks --version
  stage "conformance, validation on"
  WINNOW_DEBUG=1 timeout 240 $B/conformance_tests-stacks --gtest_brief=1 \
    --gtest_filter='*gl_*:*vkfrag_*:shader_era.*:concatenation.*' 2>&1 | tail -4
  stage "GL: lines beside stacks at 4M"
  timeout 120 $B/winnow-stacks bench --suite paths --api gl --case '*:4M' --param 'concat=lines,stacks' --out $R --name gl-lines-stacks 2>$R/gl-lines-stacks.log | tail -1
  stage "winnow reproduce cross-api"
  timeout 300 $B/winnow-stacks reproduce cross-api --out $R/cross-api 2>&1 | tail -4
  stage done
} 2>&1 | tee $R/log.txt
pack
