#!/usr/bin/env bash
# Suite preserve (compaction from a preserve list against Redzone and the O(n) compactions, across p) on
# cuda and then on the host's cpu, each api a bench process of its own, within one time budget; an
# interrupted api resumes with the same command and exp/preserve.tgz (the call before's $OUT/preserve.tgz).
# Build f513c0b embeds no suite `preserve` (it came after), so the suite is read from its file.
# Carried: build-gz (winnow.xz), .gl, .libs. Report drawn afterwards where matplotlib is:
#   /usr/bin/python3 tools/report/reproduce.py DIR --paper redzone --out DIR
# Usage: bash docs/results/h200-2026-11-29e/device/preserve.sh [SECONDS]
set -uo pipefail
. tools/device-env.sh
end=$(( $(date +%s) + ${1:-240} ))
[ -f exp/preserve.tgz ] && tar xzf exp/preserve.tgz
mkdir -p repro/preserve
trap 'tar czf "$OUT/preserve.tgz" repro; exit 143' TERM
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader; nproc; build-carry/winnow --version; } | tee -a repro/calls.txt
for api in cuda cpu; do
  left=$(( end - $(date +%s) ))
  start=$(date +%s)
  timeout -s TERM $left build-carry/winnow bench --suite tools/winnow/suites/preserve.json --api $api \
    --out repro/preserve/$api --resume > repro/preserve-$api.out 2> repro/preserve-$api.err
  echo "$api: bench exit $? after $(( $(date +%s) - start )) s of $left" | tee -a repro/calls.txt
  tail -1 repro/preserve-$api.out
done
tar czf "$OUT/preserve.tgz" repro
