#!/usr/bin/env bash
# The whole test suite: installs or builds whatever is missing, then runs every test (CTest).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
cmake --preset ci
cmake --build --preset ci
ctest --preset ci
