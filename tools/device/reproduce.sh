#!/usr/bin/env bash
# One call of the device tool (at most 10 minutes) that runs `winnow reproduce` for each PAPER named,
# going on from where the call before stopped. The device machine keeps nothing between calls, so the
# run's folders travel: each call packs build-carry/repro/ into $OUT/repro.tar.gz; put that file at
# build-repro/repro.tar.gz here and carry build-repro with the next call, which unpacks it and resumes
# (bench --resume keeps only records of the same device: resume on the same kind of card). A paper's
# committed records (docs/results/CARD/PAPER/records.tar.xz) can start a run the same way:
# `cp docs/results/h200/redzone/records.tar.xz build-repro/` resumes that run (tar's top folder is
# the paper's name).
#
# Carry: build-gz (tools/device/build.sh winnow) .gl .libs (tools/device/libs.sh) [build-repro]
# Usage, as the device tool's command:  OUT=$OUT BUDGET=550 bash tools/device/reproduce.sh PAPER...
#   BUDGET  seconds this call may spend before it stops the reproduction and packs (default 540)
# What comes back: repro.tar.gz (every paper's folder, with logs/), and the call's log.
set -uo pipefail
: "${OUT:?set OUT to the folder whose files come back}"
(($#)) || { echo "usage: OUT=... BUDGET=540 bash tools/device/reproduce.sh PAPER..." >&2; exit 2; }
B=build-carry
. tools/device/env.sh || exit 1
# The report's scripts from this tree (the binary's compiled-in path is this machine's). The GPU
# machine has no matplotlib: the report comes back without figures; draw it here (README.md).
export WINNOW_REPORT_DIR=$PWD/tools/report
budget=${BUDGET:-540}
mkdir -p "$B/repro/logs"
pack() { tar czf "$OUT/repro.tar.gz" -C "$B" repro; }
trap 'pack; exit 143' TERM
carried=$(ls build-repro/repro.tar.gz build-repro/repro.tar.xz build-repro/records.tar.xz 2>/dev/null | head -1)
if [[ -n $carried ]]; then
  case $carried in
    */records.tar.xz) tar xJf "$carried" -C "$B/repro" ;;  # a committed paper: its folder is the top one
    *) tar xf "$carried" -C "$B" ;;                       # a call's repro/ from before
  esac || { echo "tools/device/reproduce.sh: cannot unpack $carried"; exit 1; }
fi
log=$B/repro/logs/call-$(date +%H%M%S).log
{
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader
  "$B/winnow" --version
  for paper in "$@"; do
    left=$((budget - SECONDS))
    if ((left < 30)); then echo "== $paper: no time left in this call"; continue; fi
    mkdir -p "$B/repro/$paper"
    echo "== reproduce $paper ($(date +%T), $left s left)"
    # SIGINT: the bench writes what it has and the step stays resumable.
    timeout -s INT "$left" "$B/winnow" reproduce "$paper" --out "$B/repro/$paper" \
      2>>"$B/repro/logs/$paper-progress.log" | tail -2
    echo "== $paper: exit ${PIPESTATUS[0]} ($(date +%T), at $SECONDS s)"
    tail -3 "$B/repro/logs/$paper-progress.log"
  done
} 2>&1 | tee -a "$log"
cp "$log" "$OUT/"
pack
