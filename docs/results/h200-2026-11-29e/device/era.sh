#!/usr/bin/env bash
# Suite moreira-era on the three paths of the shader-era passes (gl, vkfrag, vk), each api in a bench
# process of its own (docs/driver-quirks.md), within one time budget: Table 1 as Moreira et al.'s
# GeForce 7300 Go ran it (loop_limit=256) and Horn's search by steps beside the loop.
# Carried: build-gz (winnow.xz), .gl, .libs. The report is drawn afterwards where matplotlib is:
#   /usr/bin/python3 tools/report/reproduce.py DIR --paper moreira --out DIR
# Usage: bash docs/results/h200-2026-11-29e/device/era.sh [SECONDS]  (at least 30 below the call's limit_s)
set -uo pipefail
. tools/device-env.sh
end=$(( $(date +%s) + ${1:-480} ))
mkdir -p repro/era
trap 'tar czf "$OUT/era.tgz" repro; exit 143' TERM
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader; build-carry/winnow --version; } | tee repro/calls.txt
for api in gl vkfrag vk; do
  # An equal share of what is left to each api still to run, so that one slow api cannot take the others' time.
  left=$(( end - $(date +%s) )); case $api in gl) share=$(( left / 3 ));; vkfrag) share=$(( left / 2 ));; vk) share=$left;; esac
  start=$(date +%s)
  timeout -s TERM $share build-carry/winnow bench --suite moreira-era --api $api --out repro/era/$api \
    > repro/era-$api.out 2> repro/era-$api.err
  echo "$api: bench exit $? after $(( $(date +%s) - start )) s of $share" | tee -a repro/calls.txt
  tail -1 repro/era-$api.out
done
tar czf "$OUT/era.tgz" repro
