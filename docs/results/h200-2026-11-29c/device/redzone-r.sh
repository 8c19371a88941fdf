#!/usr/bin/env bash
# Suite `redzone-r` (Fig. 6 of Bontes & Gain: Redzone 2 as published, 1500 records) on the H200 from the
# start, resumed call after call: a whole Fig. 6 on one card while the H100's stays 97 records short.
# A call resumes from exp/redzone-r.tgz, the $OUT/redzone-r.tgz of the call before (exp/ is untracked and
# travels with the tree), or without it from the records committed in ../redzone-r/ (this session's first
# call started from none). Carried: build-gz (winnow.xz), .gl, .libs.
# Usage: bash docs/results/h200-2026-11-29c/device/redzone-r.sh [SECONDS]  (at least 30 below the call's limit_s)
set -uo pipefail
# Stopped from outside, the bench writes what finished and the records still come back.
trap 'tar czf "$OUT/redzone-r.tgz" repro; exit 143' TERM
. tools/device-env.sh
end=$(( $(date +%s) + ${1:-545} ))
if [ -f exp/redzone-r.tgz ]; then
  tar xzf exp/redzone-r.tgz
else
  mkdir -p repro/redzone/cuda
  from=docs/results/h200-2026-11-29c/redzone-r/cuda
  gunzip -c $from/redzone-r.jsonl.gz > repro/redzone/cuda/redzone-r.jsonl
  cp $from/redzone-r.status.json repro/redzone/cuda/
fi
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  echo "$(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB"
  build-carry/winnow --version; } | tee -a repro/calls.txt
start=$(date +%s)
timeout -s TERM $(( end - start )) build-carry/winnow bench --suite redzone-r --api cuda \
  --out repro/redzone/cuda --resume > repro/bench.out 2> repro/bench.err
echo "bench exit $? after $(( $(date +%s) - start )) s" | tee -a repro/calls.txt
tail -3 repro/bench.err
tar czf "$OUT/redzone-r.tgz" repro
