#!/usr/bin/env bash
# Every suite file kept in the repository (cuda/bench, vulkan/bench) and every suite the GPU machine's
# scripts name (tools/device: `--suite S`, and the words of `for suite in A B C`) loads and plans in
# this build: `winnow bench --suite S --list` checks the file's keys and types, that its algorithms
# exist and that each parameter value is one the algorithm accepts, and runs nothing. A script that
# names a suite no one kept fails here, not on the GPU machine. A suite naming an api this build
# lacks (no nvcc: no cuda) is passed over, and said so.
set -euo pipefail
winnow=$1 root=$2
cd "$root"
names=$( (
  ls cuda/bench/*.json vulkan/bench/*.json
  grep -ohE -- '--suite [^ "$]+' tools/device/*.sh | cut -d' ' -f2 || true
  grep -ohE 'for suite in [^;]+' tools/device/*.sh | cut -d' ' -f4- | tr ' ' '\n' || true
) | sort -u)
built=$("$winnow" list --json | python3 -c 'import json, sys; print(" ".join(b["api"] for b in json.load(sys.stdin)["backends"]))')
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0 count=0
for s in $names; do
  file=$s
  [[ $s == *.json ]] || file=tools/winnow/suites/$s.json
  # The apis the suite names, by its "apis" and its algorithms' prefixes (a missing file: winnow says so).
  apis=$(python3 -c 'import json, sys
try:
    j = json.load(open(sys.argv[1]))
except (OSError, ValueError):
    sys.exit()  # winnow names what is wrong with it
print(" ".join(set(j.get("apis", [])) | {a.split("/")[0] for a in j.get("algorithms", [])}))' "$file")
  missing=$(for a in $apis; do [[ " $built " == *" $a "* ]] || echo "$a"; done)
  if [[ -n $missing ]]; then
    echo "suite $s: passed over, this build has no $(echo $missing)"
    continue
  fi
  [[ $s == *.json ]] && s=$root/$s
  count=$((count + 1))
  # From an empty folder: --list writes nothing, and should it, not into the source tree.
  if ! err=$(cd "$work" && "$winnow" bench --suite "$s" --list 2>&1 >/dev/null); then
    echo "suite ${s#"$root"/}: $err"
    fail=1
  fi
done
echo "$count suites checked"
if ((count == 0)); then
  echo "no suite checked: this build has none of their apis"
  exit 1
fi
exit $fail
