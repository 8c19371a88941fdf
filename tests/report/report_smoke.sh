#!/usr/bin/env bash
# tools/report on a real (small) bench: a table per case family, the removal plot, every run ok.
set -euo pipefail
winnow=$1 report=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$winnow" bench --suite cpu --seeds 1 --case removal:4096:k=0.1 --case removal:16384:k=0.1 --case uniform:5000:p=0.3 \
  --reps 1 --warmup 0 --out "$dir" 2>/dev/null >/dev/null
python3 "$report" "$dir"
grep -q '^## removal:k=0.1:r=uniform' "$dir/report.md"
grep -q '^## uniform:p=0.3' "$dir/report.md"
grep -q '| cpu/redzone | batches=' "$dir/report.md"
! grep -q 'WRONG' "$dir/report.md"
# The plot needs matplotlib; a python3 without it still writes the whole report and says why.
if python3 -c 'import matplotlib' 2>/dev/null; then
  test -s "$dir/removal.png"
else
  grep -q 'removal.png not drawn' "$dir/report.md"
fi
echo "report smoke: ok"
