#!/usr/bin/env bash
# `winnow reproduce all --quick` end to end on what this machine has (llvmpipe, lavapipe, the CPU;
# CUDA where present): every paper's report is written, every table of a paper that ran is filled and
# every verdict computed; a paper that could not run says why, table by table.
set -euo pipefail
winnow=$1 check=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$winnow" reproduce all --quick --out "$dir/r" >"$dir/tables.log" 2>"$dir/progress.log" || {
  echo "reproduce failed (exit $?):"; tail -20 "$dir/progress.log"; exit 1; }
python3 "$check" "$dir/r" --papers moreira,cross-api,redzone,billeter,cpu,cis565,limit
