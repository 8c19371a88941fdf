#!/usr/bin/env bash
# The same Redzone records (Redzone 2 as published, k = 50 %, r = 25 %) made by the bench of 3ec0603
# (one case after another, the reference and the checks on one core) and by a later one (cases made a
# batch ahead on all cores: 260a1d9 in call 1; 112aced, the check on all cores too, in call 2; d0ac17c, the
# traffic model's pair counts on all cores too, in call 3),
# one after the other on one machine: how long each takes a record, and that the timings do not move.
# Carried: build-gz/winnow.xz (new) and build-gz/winnow-old.xz, .gl, .libs. Everything the call
# writes is packed into $OUT/batches.tgz (a call brings back only so many files).
# Usage: bash docs/results/h200-2026-11-29b/device/batches.sh 'CASE SEEDS BUILD...' ...
set -uo pipefail
. tools/device-env.sh
mkdir -p out
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee out/device.txt
echo "$(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB" | tee -a out/device.txt
build-carry/winnow --version | tee -a out/device.txt
for c in "$@"; do
  set -- $c
  spec=$1 seeds=$2
  shift 2
  for build in "$@"; do
    dir=out/$build/$(echo "$spec" | cut -d: -f2)-$seeds
    mkdir -p "$dir"
    start=$(date +%s.%N)
    build-carry/$build bench --suite redzone-r --api cuda --case "$spec" --seeds "$seeds" --out "$dir" > "$dir/stdout.txt" 2> "$dir/stderr.txt"
    rc=$?
    secs=$(python3 -c "print(round($(date +%s.%N) - $start, 1))")
    echo "$build $spec seeds=$seeds rc=$rc ${secs}s" | tee -a out/walls.txt
    rm -f "$dir/.winnow.lock"
  done
done
tar czf "$OUT/batches.tgz" out
