#!/usr/bin/env bash
# 2026-11-27f, call 6: `winnow reproduce cross-api` a second time on a fresh machine (call 5 measured Binary-Tree
# on the Vulkan fragment path at B = 512 at 1.29 of its pass model, against a target of 1.3: one run is not
# enough to call that met), then the Redzone reproduction resumed for the rest of the call.
# Carry build-gz (winnow, xz, of the head) .gl .libs exp (exp/redzone.tgz, the records so far):
# `bash docs/results/h100-2026-11-27f/device/call6.sh [SECONDS]`.
set -uo pipefail
start=$(date +%s)
. tools/device-env.sh
mkdir -p call6
trap 'tar czf $OUT/call6.tgz call6; exit 143' TERM
{
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
  build-carry/winnow --version
  timeout 240 build-carry/winnow reproduce cross-api --out call6/cross-api 2>&1 | tail -2
} 2>&1 | tee call6/log.txt
tar czf $OUT/call6.tgz call6
bash docs/results/h100-2026-11-27/device/redzone.sh $(( ${1:-560} - ($(date +%s) - start) ))
