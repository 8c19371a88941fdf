#!/usr/bin/env bash
# The whole test suite: installs or builds whatever is missing, builds the ci preset (AddressSanitizer
# + UBSan, warnings are errors, every backend this machine's toolchain has) and runs every test under
# it (CTest), and meanwhile each fuzzer for a short fixed time (tests/fuzz/short_runs.sh: its own
# clang build, then the runs), which fills the cores the tests that run alone leave idle. What the
# sanitized tests preload, and which run without the preload: tests/CMakeLists.txt. CUDA's tests
# skip without a device; the build still compiles its code.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
cmake --preset ci
cmake --build --preset ci
mkdir -p build
tests/fuzz/short_runs.sh 20 >build/fuzz-short-runs.log 2>&1 &
fuzz=$!
status=0
ctest --preset ci || status=1
if wait "$fuzz"; then
  grep '^fuzz_' build/fuzz-short-runs.log
else
  cat build/fuzz-short-runs.log
  status=1
fi
exit "$status"
