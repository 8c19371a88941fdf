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
# Every test again under AddressSanitizer + UBSan (GPU-driver leaks: tests/asan/lsan.supp), each test
# executable as a few shards rather than a process per test (WINNOW_TEST_PROCESS_PER_TEST in
# tests/CMakeLists.txt says why). Left out: the tests that run programs of other people's (python3
# for the report tests, ruff for style.check, xvfb-run and Xvfb for the viewer's screenshot): under
# the preset's LD_PRELOAD of the ASan runtime those report their own leaks at exit; the C++ they drive
# is covered by the other tests. And install.example, whose example programs are built without the
# sanitizers and cannot link the instrumented libraries; and vk_labels, whose capture layer the
# preset's LD_PRELOAD goes round: the preloaded validation layer exports vkGetInstanceProcAddr, which
# interposes the loader's, so the label calls winnow looks up never pass through the loader's layer
# chain (without that preload the test passes under ASan). The two GoogleTest ones are left out by the
# asan test preset's GTEST_FILTER, the rest here. The asan preset leaves the CUDA backend out: without
# a device its code never runs here (its tests skip), and the ci preset above still compiles it.
cmake --preset asan
cmake --build --preset asan
ctest --preset asan -E '^report\.|^install\.|^style\.'
