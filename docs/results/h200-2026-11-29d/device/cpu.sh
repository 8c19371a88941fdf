#!/usr/bin/env bash
# The Redzone paper's CPU experiment (Fig. 7, suite `cpu`) on the GPU machine's host: 16 cores and 125 GiB
# against the development machine's 2 and 24 (docs/results/cpu/, made by the foundation commit's build).
# `winnow reproduce cpu` runs the suite and writes the report (with build ffdef5f, as this session ran it: one
# seed a point; a build of 6ada1d2 or later runs the suite's 20 seeds instead); interrupted, a call resumes from
# exp/cpu.tgz (the $OUT/cpu.tgz of the call before; exp/ is untracked and travels with the tree).
# Carried: build-gz (winnow.xz), .gl, .libs.
# Usage: bash docs/results/h200-2026-11-29d/device/cpu.sh [SECONDS]  (at least 30 below the call's limit_s)
set -uo pipefail
trap 'tar czf "$OUT/cpu.tgz" repro; exit 143' TERM
. tools/device-env.sh
end=$(( $(date +%s) + ${1:-545} ))
[ -f exp/cpu.tgz ] && tar xzf exp/cpu.tgz
mkdir -p repro
{ lscpu | grep -E '^(Model name|Socket|Core|Thread|CPU\(s\))'
  echo "$(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB"
  build-carry/winnow --version; } | tee -a repro/calls.txt
start=$(date +%s)
timeout -s TERM $(( end - start )) build-carry/winnow reproduce cpu --out repro/cpu > repro/reproduce.out 2> repro/reproduce.err
echo "reproduce exit $? after $(( $(date +%s) - start )) s" | tee -a repro/calls.txt
tail -5 repro/reproduce.err
tar czf "$OUT/cpu.tgz" repro
