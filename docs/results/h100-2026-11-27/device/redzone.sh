#!/usr/bin/env bash
# `winnow reproduce redzone` resumed on an H100 (resuming keeps only records of the same device), Fig. 4's
# GPU-wide algorithms first: their 256M / 512M runs take milliseconds, while one block's (Redzone 1,
# Single pass) take up to 0.85 s each at 512M and would use a call's ten minutes alone.
# The first call starts from the records of ../redzone-reproduce/ (both suites, committed after the session); a later one from
# exp/redzone.tgz, the $OUT/redzone.tgz of the call before, carried with build-gz .gl .libs exp.
# Usage: bash docs/results/h100-2026-11-27/device/redzone.sh [SECONDS]
set -uo pipefail
# Stopped from outside (the call's limit is less than SECONDS where little device time is left: a call
# of 2026-11-27b lost its records so), the bench writes what finished and the records still come back.
trap 'tar czf "$OUT/redzone.tgz" repro; exit 143' TERM
. tools/device-env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
end=$(( $(date +%s) + ${1:-545} ))
if [ -f exp/redzone.tgz ]; then
  tar xzf exp/redzone.tgz
else
  mkdir -p repro/redzone/cuda
  from=docs/results/h100-2026-11-27/redzone-reproduce
  for suite in redzone redzone-r; do
    gunzip -c $from/cuda/$suite.jsonl.gz > repro/redzone/cuda/$suite.jsonl
    cp $from/cuda/$suite.status.json repro/redzone/cuda/
  done
  cp $from/reproduce.json repro/redzone/  # the steps' seconds so far, which `winnow reproduce` adds to
fi
timeout -s TERM $(( end - $(date +%s) )) build-carry/winnow bench --suite redzone --api cuda \
  --algo 'cuda/redzone2,cuda/cub_if,cuda/thrust_remove_if,cuda/ink' --out repro/redzone/cuda --resume 2>&1 | tail -4
left=$(( end - $(date +%s) ))
[ "$left" -gt 30 ] && timeout -s TERM "$left" build-carry/winnow reproduce redzone --out repro/redzone 2>&1 | tail -6
tar czf "$OUT/redzone.tgz" repro
