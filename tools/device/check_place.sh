#!/usr/bin/env bash
# Where a record's host time goes with its result checked on the host (read back and compared) and on
# the device (docs/design-notes.md, "Checked where the output lies"): the same build, the same Redzone
# slice (every algorithm of the redzone suite at 256M and 512M elements, k = 10 and 90 %, one seed),
# twice each, alternating. Writes $OUT/check_place.txt (each run's wall time and host steps summed over
# its records, then `winnow compare` of the timed runs) and the records as $OUT/check_place.tar.gz.
# Usage (on the GPU machine, from the repository root): tools/device/check_place.sh BUILD_DIR
set -euo pipefail
BUILD=${1:?usage: tools/device/check_place.sh BUILD_DIR}
OUT=${OUT:-$PWD/device-out}
mkdir -p "$OUT/check_place"
. tools/device/env.sh
report=$OUT/check_place.txt
cases=(--case removal:256M:k=0.1 --case removal:256M:k=0.9 --case removal:512M:k=0.1 --case removal:512M:k=0.9)
for round in 1 2; do
  for where in host device; do
    dir=$OUT/check_place/$where-$round
    start=$(date +%s%N)
    "$BUILD/winnow" bench --suite redzone "${cases[@]}" --seeds 1 --check "$where" --out "$dir" >"$dir.log" 2>&1 ||
      { tail "$dir.log"; exit 1; }
    echo "$where round $round: $((($(date +%s%N) - start) / 1000000)) ms wall" | tee -a "$report"
  done
done
python3 - "$OUT/check_place" <<'PY' | tee -a "$report"
import json, pathlib, sys
for d in sorted(pathlib.Path(sys.argv[1]).iterdir()):
    if not d.is_dir():
        continue
    steps, n, verified, where = {}, 0, 0, set()
    for line in (d / "redzone.jsonl").read_text().splitlines():
        r = json.loads(line)
        n += 1
        verified += r["verified"]
        where.add(r.get("checked_on", "?"))
        for k, v in r.get("host_ms", {}).items():
            steps[k] = steps.get(k, 0) + v
    print(f"{d.name}: {n} records, {verified} verified, checked on {sorted(where)}; host ms:",
          ", ".join(f"{k} {v:.0f}" for k, v in steps.items()))
PY
for round in 1 2; do
  "$BUILD/winnow" compare "$OUT/check_place/host-$round" "$OUT/check_place/device-$round" | tail -3 | tee -a "$report"
done
tar -czf "$OUT/check_place.tar.gz" -C "$OUT" check_place && rm -rf "$OUT/check_place"
