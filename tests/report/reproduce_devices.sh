#!/usr/bin/env bash
# `winnow reproduce cpu --quick --devices 0,0`: two shards at once on the one device this machine
# has (the test-only case of --devices: a device named twice), merged, reported; against the
# unsharded run in ONE (reproduce_unsharded.sh), the same records in the same order and the same
# report from them (same_report.py).
# Usage: reproduce_devices.sh WINNOW SOURCE_DIR ONE
set -euo pipefail
winnow=$1 root=$2 one=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$winnow" reproduce cpu --quick --devices 0,0 --out "$dir/two" >/dev/null 2>"$dir/two.log" || {
  cat "$dir/two.log"; tail -n 5 "$dir"/two/shards/*.log; exit 1; }
for k in 0 1; do
  grep -q "shard $k/2 on device 0 exited 0" "$dir/two.log" || { cat "$dir/two.log"; exit 1; }
done
python3 "$root/tests/report/same_report.py" "$one" "$dir/two" "$root/tools/report/reproduce.py"
