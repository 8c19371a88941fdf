#!/usr/bin/env bash
# Issue 14: `winnow reproduce redzone` (the Redzone paper's Figs. 4-6 on the GPU, 20 seeds a point)
# on the H200, in as many device calls as it needs: each call goes on where the last one stopped
# (reproduce resumes from the folder, which travels back and forth as repro/, carried) and stops
# itself before the call's limit. Progress and each call's exit status in repro/redzone-calls.log.
# Usage: OUT=... [LIMIT=540] bash docs/results/h200-2026-11-25d/device/redzone-reproduce.sh
#        (carry build-carry with winnow, .gl, .libs, and repro/ once a call has made it)
set -uo pipefail
. tools/device-env.sh
mkdir -p repro
{
  date -u
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader
  build-carry/winnow --version
} >> repro/redzone-calls.log
timeout -s TERM "${LIMIT:-540}" build-carry/winnow reproduce redzone --out repro/redzone >> repro/redzone-calls.log 2>&1
echo "reproduce exit $?" >> repro/redzone-calls.log
tar czf "$OUT/repro.tgz" repro
