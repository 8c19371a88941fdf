#!/usr/bin/env bash
# The whole test suite: installs or builds whatever is missing, runs every test (CTest), then each
# fuzzer for a short fixed time (tests/fuzz/short_runs.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
cmake --preset ci
cmake --build --preset ci
ctest --preset ci
tests/fuzz/short_runs.sh 20
