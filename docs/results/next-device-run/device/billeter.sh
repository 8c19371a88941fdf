#!/usr/bin/env bash
# Finishes `winnow reproduce billeter` across calls of at most 10 minutes. The first call starts from
# the 874 CUDA records of docs/results/h100-2026-11-25 when it runs on the same kind of card (bench
# --resume keeps only records of the same device; on another card it starts over). Each call packs
# repro/ into $OUT/billeter.tgz: the device machine keeps neither an ignored folder between calls
# nor a folder nested deeper than $OUT/NAME/NAME in what comes back. Unpack it here into repro/ and
# carry "repro" with the next call, which goes on from there.
# Usage: OUT=... bash docs/results/next-device-run/device/billeter.sh [SECONDS]
set -uo pipefail
. tools/device-env.sh
if [ ! -f repro/billeter/reproduce.json ]; then
  mkdir -p repro && cp -r docs/results/h100-2026-11-25/billeter-partial repro/billeter
fi
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout -s TERM "${1:-540}" build-carry/winnow reproduce billeter --out repro/billeter 2>&1 | tail -8
tar czf "$OUT/billeter.tgz" repro
