#!/usr/bin/env bash
# `winnow reproduce PAPER...` on the GPU machine, resumable across device calls (each at most 10
# minutes): the results folder build-carry/repro/PAPER travels in with the tree (carried) and comes
# back as $OUT/repro.tar.gz; a call that runs out of time stops the paper with SIGINT, which writes
# the finished records (marked incomplete), and the next call goes on from there.
# Usage: OUT=... BUDGET=540 bash docs/results/h200-2026-11-24/device/reproduce.sh redzone moreira
set -uo pipefail
B=build-carry
. tools/device-env.sh
export WINNOW_REPORT_DIR=$PWD/tools/report
budget=${BUDGET:-540}
{
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader
  for paper in "$@"; do
    left=$((budget - SECONDS))
    if [ $left -lt 30 ]; then echo "== $paper: no time left in this call"; continue; fi
    mkdir -p $B/repro/$paper
    echo "== reproduce $paper ($(date +%T), $left s left)"
    timeout -s INT $left $B/winnow reproduce $paper --out $B/repro/$paper 2>$OUT/$paper-progress.log | tail -2
    echo "== $paper: exit ${PIPESTATUS[0]} ($(date +%T))"
    tail -3 $OUT/$paper-progress.log
  done
} 2>&1 | tee $OUT/log.txt
tar czf $OUT/repro.tar.gz -C $B repro
