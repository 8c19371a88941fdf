#!/usr/bin/env bash
# Where a bench's host time goes, two or more ways with the same build (docs/design-notes.md: "Checked
# where the output lies", "A case's input goes to the device once", "Cases are made a batch ahead"):
# the same Redzone slice (every algorithm of the redzone suite at 256M and 512M elements, k = 10 and
# 90 %, one seed; 28 records; or SUITE's CASES, specs apart by spaces) once per variant, in turn,
# twice. A variant is NAME='WORDS': words of the form WINNOW_…=… go into the environment, the others
# onto bench's command line. Writes
# $OUT/host_time.txt (each bench's wall time and host steps summed over its records, then `winnow
# compare` of the timed runs: each variant against the first, and against BASELINE, a results folder
# or .jsonl of the same card, when set) and the records as $OUT/host_time.tar.gz.
# Usage (on the GPU machine, from the repository root):
#   tools/device/host_time.sh BUILD_DIR NAME='WORDS' NAME='WORDS' …
#   e.g. tools/device/host_time.sh build-carry host='--check host' device='--check device'
#        tools/device/host_time.sh build-carry in-turn='WINNOW_MAKE_AHEAD=0' ahead='WINNOW_MAKE_AHEAD=1'
set -euo pipefail
BUILD=${1:?usage: tools/device/host_time.sh BUILD_DIR NAME=WORDS NAME=WORDS ...}
shift
(($# >= 1)) || { echo "tools/device/host_time.sh: name at least one variant (NAME='WORDS')" >&2; exit 2; }
OUT=${OUT:-$PWD/device-out}
runs=$OUT/host_time
mkdir -p "$runs"
. tools/device/env.sh
report=$OUT/host_time.txt
SUITE=${SUITE:-redzone}
cases=()
for spec in ${CASES:-removal:256M:k=0.1 removal:256M:k=0.9 removal:512M:k=0.1 removal:512M:k=0.9}; do
  cases+=(--case "$spec")
done
names=()
for variant in "$@"; do names+=("${variant%%=*}"); done
for round in 1 2; do
  for variant in "$@"; do
    name=${variant%%=*}
    env_words=() arg_words=()
    for word in ${variant#*=}; do
      if [[ $word == WINNOW_*=* ]]; then env_words+=("$word"); else arg_words+=("$word"); fi
    done
    dir=$runs/$name-$round
    start=$(date +%s%N)
    env "${env_words[@]}" "$BUILD/winnow" bench --suite "$SUITE" "${cases[@]}" --seeds 1 "${arg_words[@]}" \
      --out "$dir" >"$dir.log" 2>&1 || { tail "$dir.log"; exit 1; }
    echo "$name round $round: $((($(date +%s%N) - start) / 1000000)) ms wall" | tee -a "$report"
  done
done
python3 - "$runs" "$SUITE" <<'PY' | tee -a "$report"
import json, pathlib, sys
for d in sorted(pathlib.Path(sys.argv[1]).iterdir()):
    if not d.is_dir():
        continue
    steps, n, verified, where = {}, 0, 0, set()
    for line in (d / (sys.argv[2] + ".jsonl")).read_text().splitlines():
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
  for name in "${names[@]:1}"; do
    echo "compare ${names[0]}-$round $name-$round:" | tee -a "$report"
    "$BUILD/winnow" compare "$runs/${names[0]}-$round" "$runs/$name-$round" | tail -3 | tee -a "$report"
  done
  if [[ -n ${BASELINE:-} ]]; then
    for name in "${names[@]}"; do
      echo "compare BASELINE $name-$round:" | tee -a "$report"
      "$BUILD/winnow" compare "$BASELINE" "$runs/$name-$round" | grep -v "^only \(before\|after\):" | tail -3 | tee -a "$report"
    done
  fi
done
tar -czf "$OUT/host_time.tar.gz" -C "$OUT" host_time && rm -rf "$runs"
