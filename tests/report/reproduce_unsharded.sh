#!/usr/bin/env bash
# One unsharded `winnow reproduce cpu --quick` into OUT, afresh (a folder already there would be
# resumed): what reproduce_devices.sh and slurm_reproduce.sh compare their sharded runs against.
# Usage: reproduce_unsharded.sh WINNOW OUT
set -euo pipefail
winnow=$1 out=$2
rm -rf "$out"
"$winnow" reproduce cpu --quick --out "$out" >/dev/null 2>"$out.log" || { tail "$out.log"; exit 1; }
