#!/usr/bin/env bash
# Builds, here, what a GPU machine runs (README.md, "Running on a GPU"), and packs it for the carry:
# the release build with the tests, for CUDA architecture 90 (H100, H200), into build-device/, then
# each binary named stripped and xz-compressed into build-gz/NAME.xz, which tools/device/env.sh
# unpacks over there. The carry limit is 64 MiB for the tracked tree and every carried folder
# together: a stripped winnow packs to a few MiB, the test binaries to more.
# Usage: tools/device/build.sh [NAME ...]   NAME: winnow (default), gl_tests, vulkan_tests,
#                                           cuda_tests, conformance_tests, common_tests, cli_tests
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
names=("${@:-winnow}")
exclude=$(git rev-parse --git-path info/exclude)
for d in /build-device/ /build-gz/ /build-carry/ /build-repro/; do
  grep -qxF "$d" "$exclude" 2>/dev/null || echo "$d" >> "$exclude"
done
tools/setup.sh
cmake -S . -B build-device -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DWINNOW_BUILD_TESTS=ON > /dev/null
cmake --build build-device --target "${names[@]}"
mkdir -p build-gz
for name in "${names[@]}"; do
  binary=$(find build-device -type f -name "$name" -perm -u+x | head -1)
  [[ -n $binary ]] || { echo "tools/device/build.sh: no binary named $name in build-device" >&2; exit 1; }
  strip -o "build-gz/$name" "$binary"
  xz -9 -T0 -f "build-gz/$name"
  echo "build-gz/$name.xz: $(du -h "build-gz/$name.xz" | cut -f1) ($("$binary" --version 2>/dev/null | head -1 || echo "$binary"))"
done
