#!/usr/bin/env bash
# The GPU tests of e71a8ce (the reference, the checks and Redzone's pair counts on all cores): the CUDA
# tests, the CPU Redzone tests, the conformance suite as CI samples it on every API, then every case
# and parameter on CUDA. Carried: build-gz with winnow.xz, conformance_tests.xz, cuda_tests.xz,
# cpu_tests.xz; .gl, .libs. Logs in $OUT.
set -uo pipefail
. tools/device-env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/device.txt"
B=build-carry
timeout 60 $B/cuda_tests --gtest_brief=1 > "$OUT/cuda_tests.log" 2>&1; echo "cuda_tests rc=$?"; tail -3 "$OUT/cuda_tests.log"
timeout 60 $B/cpu_tests --gtest_brief=1 > "$OUT/cpu_tests.log" 2>&1; echo "cpu_tests rc=$?"; tail -3 "$OUT/cpu_tests.log"
timeout 200 $B/conformance_tests --gtest_brief=1 > "$OUT/conformance.log" 2>&1; echo "conformance (sampled, every api) rc=$?"; tail -3 "$OUT/conformance.log"
WINNOW_CONFORMANCE=full timeout 150 $B/conformance_tests --gtest_brief=1 --gtest_filter='*cuda*' > "$OUT/conformance-cuda-full.log" 2>&1
echo "conformance (full, cuda) rc=$?"; tail -3 "$OUT/conformance-cuda-full.log"
gzip "$OUT"/*.log
