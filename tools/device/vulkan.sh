#!/usr/bin/env bash
# The Vulkan backend on the GPU machine: the Vulkan tests, then the benchmarks, into $OUT
# (10 files: log.txt, and each bench's NAME.{jsonl,csv,status.json}: moreira, gl/moreira, ballot).
# Run from the repository root, carrying .gl, .libs and the build folder (default build-device,
# configured with the release preset, CUDA architecture 90, WINNOW_BUILD_TESTS=ON):
#   tools/device/vulkan.sh [build-folder]
# The validation layer runs there only when .libs holds vulkan-validationlayers
# (tools/device/libs.sh); otherwise the tests run without it.
set -uo pipefail
build=${1:-build-device}
out=${OUT:?set OUT to the folder whose files come back}
. tools/device/env.sh
layers=/tmp/winnow-libs/usr/share/vulkan/explicit_layer.d
if [[ -f $layers/VkLayer_khronos_validation.json ]]; then
  export VK_LAYER_PATH=$layers WINNOW_VK_VALIDATION=1
else
  export WINNOW_VK_VALIDATION=0
fi
log=$out/log.txt
{
  echo "== device"; nvidia-smi -L; git describe --always --dirty 2>/dev/null
  echo "== winnow list (validation: $WINNOW_VK_VALIDATION)"; "$build/winnow" list
  echo "== vulkan_tests"
  "$build/tests/vulkan/vulkan_tests" --gtest_brief=1
  echo "== conformance (vk)"
  (cd "$build" && ctest -R 'conformance.*/vk_' -j 12 --timeout 120 2>&1 | tail -n 15)
  # Benchmarks without the layer: it adds host time to every call.
  export WINNOW_VK_VALIDATION=0
  echo "== bench moreira (vk)"
  "$build/winnow" bench --suite moreira --api vk --out "$out" | tail -n 5
  if "$build/winnow" list 2>/dev/null | grep -A1 '^gl ' | grep -q 'available:'; then
    echo "== bench moreira (gl, same session)"
    "$build/winnow" bench --suite moreira --api gl --out "$out/gl" | tail -n 5
  fi
  echo "== bench ballot (vk, cuda)"
  "$build/winnow" bench --suite ballot --out "$out" | tail -n 60
} 2>&1 | tee "$log"
