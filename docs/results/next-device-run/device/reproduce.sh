#!/usr/bin/env bash
# Runs `winnow reproduce PAPER` across calls of at most 10 minutes. The device machine keeps neither an
# ignored folder between calls nor a folder nested deeper than $OUT/NAME/NAME in what comes back, so
# each call packs repro/ into $OUT/PAPER.tgz: unpack it here into repro/ and carry "repro" with the next
# call, which goes on from there (bench --resume keeps only records of the same device: resume on the
# same kind of card). The 2026-11-25 sessions finished `billeter` this way in three calls.
# Usage: OUT=... bash docs/results/next-device-run/device/reproduce.sh PAPER [SECONDS]
set -uo pipefail
paper=${1:?usage: reproduce.sh PAPER [SECONDS]}
. tools/device-env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout -s TERM "${2:-540}" build-carry/winnow reproduce "$paper" --out "repro/$paper" 2>&1 | tail -8
tar czf "$OUT/$paper.tgz" repro
