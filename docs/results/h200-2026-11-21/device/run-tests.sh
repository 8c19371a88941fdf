#!/usr/bin/env bash
# GPU machine, part 1: every backend's own tests and the conformance suite for cuda, vk and the new
# gl algorithms, then compute-sanitizer (memcheck on every cuda algorithm; racecheck and synccheck
# on those with shared memory or block-wide syncs). Results under $OUT.
set -uo pipefail
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > $OUT/gpu.txt 2>&1
layers=/tmp/winnow-libs/usr/share/vulkan/explicit_layer.d
[ -f $layers/VkLayer_khronos_validation.json ] && export VK_LAYER_PATH=$layers && echo "validation layer: yes" >> $OUT/gpu.txt
{
  echo "== cuda_tests"; ./cuda_tests --gtest_brief=1 2>&1 | tail -20
  echo "== conformance cuda"; ./conformance_tests --gtest_brief=1 --gtest_filter='*cuda_*' 2>&1 | tail -30
  echo "== vulkan_tests"; ./vulkan_tests --gtest_brief=1 2>&1 | tail -20
  echo "== conformance vk (validation ${VK_LAYER_PATH:+on})"; WINNOW_VK_VALIDATION=${VK_LAYER_PATH:+1} ./conformance_tests --gtest_brief=1 --gtest_filter='*vk_*' 2>&1 | tail -20
  echo "== conformance gl jj rlz"; ./conformance_tests --gtest_brief=1 --gtest_filter='*gl_jj*:*gl_rlz*' 2>&1 | tail -10
  echo "== gl_tests"; ./gl_tests --gtest_brief=1 2>&1 | tail -5
} > $OUT/tests.txt 2>&1
tail -5 $OUT/tests.txt
san=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
{
  echo "compute-sanitizer: ${san:-not found}"
  if [ -n "$san" ]; then
    for a in $(./winnow list | grep -o '^  cuda/[a-z0-9_]*'); do
      for c in uniform:100003:p=0.3 removal:100003:k=0.1; do
        echo "== memcheck $a $c"; $san --tool memcheck --error-exitcode 9 ./winnow run --algo $a --case $c --reps 1 --warmup 0 2>&1 | grep -E "ERROR SUMMARY|result|skipped" ; echo "rc=$?"
      done
    done
    for a in cuda/redzone1 cuda/redzone2 cuda/single_pass cuda/billeter cuda/ink cuda/scan_efficient; do
      for t in racecheck synccheck; do
        echo "== $t $a"; $san --tool $t --error-exitcode 9 ./winnow run --algo $a --case removal:100003:k=0.3 --reps 1 --warmup 0 2>&1 | grep -E "ERROR SUMMARY|RACE|result"
      done
    done
  fi
} > $OUT/sanitizer.txt 2>&1
grep -c "ERROR SUMMARY: 0 errors" $OUT/sanitizer.txt; grep "ERROR SUMMARY" $OUT/sanitizer.txt | grep -v " 0 errors" | head
