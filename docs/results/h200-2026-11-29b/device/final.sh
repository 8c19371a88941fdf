#!/usr/bin/env bash
# The final review's build (34e3219: Redzone's pair counts read the removed-element byte mask) on the
# GPU: the CUDA and CPU tests, and 4 seeds of the 512M Redzone records, whose bytes must be those of
# calls 2 and 3. Carried: build-gz with winnow.xz, cuda_tests.xz, cpu_tests.xz; .gl, .libs.
set -uo pipefail
. tools/device-env.sh
mkdir -p out
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee out/device.txt
build-carry/winnow --version | tee -a out/device.txt
timeout 60 build-carry/cuda_tests --gtest_brief=1 > out/cuda_tests.log 2>&1; echo "cuda_tests rc=$?"; tail -1 out/cuda_tests.log
timeout 30 build-carry/cpu_tests --gtest_brief=1 > out/cpu_tests.log 2>&1; echo "cpu_tests rc=$?"; tail -1 out/cpu_tests.log
start=$(date +%s)
build-carry/winnow bench --suite redzone-r --api cuda --case removal:512M:k=0.5:r=0.25 --seeds 4 --out out/512M-4 \
  > out/512M-4.stdout.txt 2> out/512M-4.stderr.txt
echo "bench rc=$? $(( $(date +%s) - start )) s" | tee -a out/device.txt
rm -f out/512M-4/.winnow.lock out/512M-4/*.csv
tar czf "$OUT/final.tgz" out
