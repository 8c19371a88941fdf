#!/usr/bin/env bash
# tools/report on a real (small) bench: a table per case family, the removal plot, every run ok.
set -euo pipefail
winnow=$1 report=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$winnow" bench --suite cpu --case removal:4096:k=0.1 --case removal:16384:k=0.1 --case uniform:5000:p=0.3 \
  --reps 1 --warmup 0 --out "$dir" 2>/dev/null >/dev/null
"$report" "$dir"
grep -q '^## removal:k=0.1:r=uniform' "$dir/report.md"
grep -q '^## uniform:p=0.3' "$dir/report.md"
grep -q '| cpu/redzone | batches=' "$dir/report.md"
! grep -q 'WRONG' "$dir/report.md"
test -s "$dir/removal.png"
echo "report smoke: ok"
