#!/usr/bin/env bash
# The whole test suite: installs or builds whatever is missing, runs every test (CTest), then each
# fuzzer for a short fixed time (tests/fuzz/short_runs.sh), then the sanitizer build's tests.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
cmake --preset ci
cmake --build --preset ci
ctest --preset ci
tests/fuzz/short_runs.sh 20
# AddressSanitizer + UBSan over every test that does not touch Vulkan: those report leaks under
# LeakSanitizer whose stacks the driver's suppression (tests/asan/lsan.supp) does not cover yet.
cmake --preset asan
cmake --build --preset asan
ctest --preset asan -E 'vk|vulkan|every_api|every_method_of_every_api|reproduce_quick'
