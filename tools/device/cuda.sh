#!/usr/bin/env bash
# The CUDA backend on the GPU machine: tests, compute-sanitizer, benchmarks. Run from the repository
# root with the build folder carried (README.md, "Running on a GPU"), writing under $OUT:
#   tools/device/cuda.sh BUILD_DIR [stage ...]      stages: tests sanitize bench targets (default: all)
# Each stage fits one device call (≤ 10 min on an H200); run them in one call or split them.
# What comes back (at most 8 files): log.txt (everything), tests.txt, sanitizer.txt, calibrate.jsonl,
# results.tar.gz (JSONL + CSV of every bench). Exit status: 1 when a test, a sanitizer run or a
# verification failed; the other stages still run.
set -uo pipefail
BUILD=${1:?usage: tools/device/cuda.sh BUILD_DIR [tests|sanitize|bench|targets ...]}
shift
STAGES=${*:-tests sanitize bench targets}
OUT=${OUT:-$PWD/device-out}
mkdir -p "$OUT" "$OUT/results"
LOG=$OUT/log.txt
status=0
say() { echo "== $* ($(date +%T))" | tee -a "$LOG"; }

. tools/device/env.sh
WINNOW=$BUILD/winnow
SAN=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)

say "device"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv 2>&1 | tee -a "$LOG"
"$WINNOW" list 2>&1 | grep -A1 '^cuda' | tee -a "$LOG"

if [[ " $STAGES " == *" tests "* ]]; then
  say "cuda_tests"
  # One process each (ctest would start one per test, each paying for a CUDA context).
  "$BUILD/tests/cuda/cuda_tests" 2>&1 | tee -a "$LOG" "$OUT/tests.txt" | tail -3 || status=1
  say "conformance (cuda)"
  "$BUILD/tests/conformance/conformance_tests" --gtest_brief=1 \
    --gtest_filter='registry/conformance.matches_reference/cuda_*' 2>&1 | tee -a "$LOG" "$OUT/tests.txt" | tail -5 || status=1
fi

if [[ " $STAGES " == *" sanitize "* ]]; then
  # Every kernel on small cases that are no multiple of any tile; every variant that changes code.
  san() { # tool algo case [param ...]
    local tool=$1 algo=$2 spec=$3
    shift 3
    local args=()
    for p in "$@"; do args+=(--param "$p"); done
    echo "-- $tool $algo $spec $*" >>"$OUT/sanitizer.txt"
    if ! "$SAN" --tool "$tool" --error-exitcode 9 "$WINNOW" run --algo "$algo" --case "$spec" --reps 1 --warmup 0 \
         "${args[@]}" >>"$OUT/sanitizer.txt" 2>&1; then
      echo "FAILED: $tool $algo $spec $*" | tee -a "$LOG"
      status=1
    fi
  }
  say "compute-sanitizer"
  P=uniform:20011:p=0.3
  R=removal:20011:k=0.3:r=0.5
  for tool in memcheck racecheck synccheck; do
    for e in off on; do for s in off on; do for f in off on; do
      san $tool cuda/redzone2 $R early=$e shared=$s prefetch=$f batch=1500
    done; done; done
    san $tool cuda/redzone2 $R
    san $tool cuda/redzone1 $R
    san $tool cuda/single_pass $R
    for o in staged scattered buffered selective; do for c in prefix popc; do
      san $tool cuda/billeter $P output=$o compact=$c element=32
    done; done
    for el in 64 128; do san $tool cuda/billeter $P output=buffered element=$el; done
    for el in 32 128; do san $tool cuda/billeter $R output=buffered element=$el chunk=16; done
    san $tool cuda/billeter_scan $P scan=billeter
    san $tool cuda/billeter_scan $P scan=cub
    san $tool cuda/billeter_split $P
    san $tool cuda/ink $R block=128
    san $tool cuda/scan_naive $P
    san $tool cuda/scan_efficient $R
    if [[ $tool == memcheck ]]; then # library kernels: memory errors only
      san $tool cuda/cub_if $R place=in
      san $tool cuda/cub_flagged $P place=out
      san $tool cuda/cub_flagged $R place=in
      san $tool cuda/thrust_copy_if $R
      san $tool cuda/thrust_remove_if $P
    fi
  done
  grep -E "ERROR SUMMARY|FAILED" "$OUT/sanitizer.txt" | sort | uniq -c | tee -a "$LOG"
fi

if [[ " $STAGES " == *" bench "* ]]; then
  # Cold: reset() restores A with a device copy whose tail — Redzone's red zone — would otherwise
  # sit in L2; every algorithm starts from a flushed L2 instead.
  for suite in redzone billeter cuda/bench/redzone_opts.json; do
    say "bench $suite"
    "$WINNOW" bench --suite "$suite" --cold --out "$OUT/results" 2>>"$LOG" | tail -3 | tee -a "$LOG" || status=1
  done
fi

if [[ " $STAGES " == *" targets "* ]]; then
  say "copy roofline"
  "$WINNOW" calibrate --api cuda --out "$OUT/calibrate.jsonl" | tee -a "$LOG" || status=1
  # The single pass and Redzone at the limit (`winnow reproduce limit` runs the same suites with vk's
  # too and reports them against their targets); Billeter's chunked mode at 2^28.
  for suite in limit limit-wide limit-redzone; do
    say "bench $suite"
    "$WINNOW" bench --suite "$suite" --api cuda --out "$OUT/results" 2>>"$LOG" | tail -3 | tee -a "$LOG" || status=1
  done
  say "bench cuda/bench/targets_billeter.json"
  "$WINNOW" bench --suite cuda/bench/targets_billeter.json --cold --out "$OUT/results" 2>>"$LOG" | tee -a "$LOG" || status=1
fi

tar -czf "$OUT/results.tar.gz" -C "$OUT" results && rm -rf "$OUT/results"
say "done, status $status"
exit $status
