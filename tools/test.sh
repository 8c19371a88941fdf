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
# Every test again under AddressSanitizer + UBSan (GPU-driver leaks: tests/asan/lsan.supp), but the
# report tests: their python3 would run with the preset's preloaded ASan runtime and fail on
# Python's own leaks at exit (the C++ they drive is covered by the cli and results tests).
cmake --preset asan
cmake --build --preset asan
ctest --preset asan -E '^report\.'
