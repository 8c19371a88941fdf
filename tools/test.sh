#!/usr/bin/env bash
# The whole test suite: installs or builds whatever is missing, builds the ci preset (AddressSanitizer
# + UBSan, warnings are errors, every backend this machine's toolchain has) and runs every test under
# it (CTest), then each fuzzer for a short fixed time (tests/fuzz/short_runs.sh). What the sanitized
# tests preload, and which run without the preload: tests/CMakeLists.txt. CUDA's tests skip without a
# device; the build still compiles its code.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
cmake --preset ci
cmake --build --preset ci
ctest --preset ci
tests/fuzz/short_runs.sh 20
