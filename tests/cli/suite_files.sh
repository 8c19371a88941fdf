#!/usr/bin/env bash
# Every suite file kept in the repository (cuda/bench, vulkan/bench) and every suite the GPU machine's
# scripts name (tools/device: `--suite S`, and the words of `for suite in A B C`) loads and plans in
# this build: `winnow bench --suite S --list` checks the file's keys and types, that its algorithms
# exist and that each parameter value is one the algorithm accepts, and runs nothing. A script that
# names a suite no one kept fails here, not on the GPU machine.
set -euo pipefail
winnow=$1 root=$2
cd "$root"
names=$( (
  ls cuda/bench/*.json vulkan/bench/*.json
  grep -ohE -- '--suite [^ "$]+' tools/device/*.sh | cut -d' ' -f2
  grep -ohE 'for suite in [^;]+' tools/device/*.sh | cut -d' ' -f4- | tr ' ' '\n'
) | sort -u)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" # --list writes nothing; should it, not into the source tree
fail=0 count=0
for s in $names; do
  [[ $s == *.json ]] && s=$root/$s
  count=$((count + 1))
  if ! err=$("$winnow" bench --suite "$s" --list 2>&1 >/dev/null); then
    echo "suite ${s#"$root"/}: $err"
    fail=1
  fi
done
echo "$count suites checked"
exit $fail
