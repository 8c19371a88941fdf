#!/usr/bin/env bash
# One device call of 2026-12-01 on the H200 (at most 10 minutes): the GPU tests of this session's
# changes where not yet run, then `winnow reproduce` for each paper named, resuming each from the
# folder the call before returned. The run's folders live in build-carry/repro/PAPER; they come back
# as $OUT/repro.tar.gz, which the next call carries as build-repro/repro.tar.gz (or, to go on from a
# folder committed between sessions, build-repro/repro.tar.xz, as 2026-12-02c's was: git show 931f32e).
#
# First call only (no build-repro/repro.tar.gz): the folders are laid out from the repository —
#   billeter: the H200's run of 2026-11-29 (docs/results/h200-2026-11-29/billeter) with the records
#     of the code changed since (cuda/scan_*: the scans made one class in b09c060, Blelloch's levels
#     in f808bc7) and the CUDA calibration (its test data, 8624f7c) taken out, so that the resumed
#     run measures exactly those again with this build and keeps the rest (whose code is unchanged);
#   moreira: the whole run (../moreira/records.tar.xz). In this session's first call that was
#     2026-11-30b's, to which the resumed run added the held-back real images (suite adaptive as
#     adaptive-images), made here beforehand into build-repro/held-back-2048 (the GPU machine has no
#     matplotlib); the archive now holds those records too, so a resumed run finds nothing left.
# Carry build-gz (winnow.xz, gl_tests.xz, cuda_tests.xz) .gl .libs build-repro.
# Usage: OUT=... BUDGET=550 bash docs/results/h200-2026-12-01/device/call.sh PAPER...
set -uo pipefail
B=build-carry
. tools/device-env.sh
export WINNOW_REPORT_DIR=$PWD/tools/report
budget=${BUDGET:-550}
mkdir -p $B/repro/logs
pack() { tar czf $OUT/repro.tar.gz -C $B repro; }
trap 'pack; exit 143' TERM
carried=$(ls build-repro/repro.tar.gz build-repro/repro.tar.xz 2>/dev/null | head -1)
if [ -n "$carried" ]; then
  tar xf "$carried" -C $B || { echo "call.sh: cannot unpack $carried"; exit 1; } # gz from a call before, or xz as committed (../redzone/)
else
  cp -r docs/results/h200-2026-11-29/billeter $B/repro/billeter
  rm -f $B/repro/billeter/cuda/calibrate.jsonl $B/repro/billeter/cuda/billeter.csv $B/repro/billeter/report.* $B/repro/billeter/*.png
  python3 - $B/repro/billeter/cuda/billeter.jsonl <<'P'
import json, sys
path = sys.argv[1]
lines = open(path).read().splitlines()
kept = [l for l in lines if json.loads(l)["algorithm"] not in ("cuda/scan_naive", "cuda/scan_efficient")]
open(path, "w").write("".join(l + "\n" for l in kept))
print(f"billeter: {len(lines) - len(kept)} cuda/scan_* records taken out, {len(kept)} kept")
P
  tar xJf docs/results/h200-2026-12-01/moreira/records.tar.xz -C $B/repro &&
    cp -r build-repro/held-back-2048 $B/repro/moreira/held-back-2048 ||
    { echo "call.sh: the moreira folder could not be laid out"; exit 1; }
fi
log=$B/repro/logs/call-$(date +%H%M%S).log
{
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader
  $B/winnow --version
  if [ ! -f $B/repro/logs/tests.done ]; then
    # This session's GPU changes: gl/geometry's draw taken apart (gl calibrate), the CUDA §4.6 test in
    # its final place (7bc195e), and gl/geometry itself on a few cases, each checked.
    timeout 60 $B/gl_tests --gtest_filter='gl_calibrate.*' > $B/repro/logs/gl-tests.log 2>&1
    echo "gl_tests gl_calibrate.*: exit $? at $SECONDS s"; tail -1 $B/repro/logs/gl-tests.log
    timeout 150 $B/cuda_tests --gtest_filter='cuda_redzone.*:cuda_device.*' > $B/repro/logs/cuda-tests.log 2>&1
    echo "cuda_tests cuda_redzone.*:cuda_device.*: exit $? at $SECONDS s"; tail -1 $B/repro/logs/cuda-tests.log
    # gl/geometry on the GPU after its change (a stage choice beside it): bench checks each record.
    timeout 90 $B/winnow bench --algo gl/geometry --case all:1 --case none:1000 --case single:1000 --case alternating:4097 \
      --case uniform:1M:p=0.3 --case removal:1M:k=0.1 --case uniform:4M:p=0.5 --reps 3 --out $B/repro/logs/geometry > $B/repro/logs/geometry.log 2>&1
    echo "bench gl/geometry (7 cases, each verified): exit $? at $SECONDS s"; tail -2 $B/repro/logs/geometry.log
    touch $B/repro/logs/tests.done
  fi
  for paper in "$@"; do
    left=$((budget - SECONDS))
    if [ $left -lt 30 ]; then echo "== $paper: no time left in this call"; continue; fi
    mkdir -p $B/repro/$paper
    echo "== reproduce $paper ($(date +%T), $left s left)"
    timeout -s INT $left $B/winnow reproduce $paper --out $B/repro/$paper 2>>$B/repro/logs/$paper-progress.log | tail -2
    echo "== $paper: exit ${PIPESTATUS[0]} ($(date +%T), at $SECONDS s)"
    tail -3 $B/repro/logs/$paper-progress.log
  done
} 2>&1 | tee -a $log
cp $log $OUT/
pack
