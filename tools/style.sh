#!/usr/bin/env bash
# The repository's style checks, one section per language; exit 1 when any fails, naming which.
# Usage: tools/style.sh          check (CTest runs this as style.check)
#        tools/style.sh --fix    rewrite what the tools can fix, then check
# The tools come from tools/setup.sh (ruff: build/venv). Another language's checks go in a section
# of their own below, appending to `failed` as the Python one does.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
fix=0
[[ ${1:-} == --fix ]] && fix=1
failed=()

# --- Python: ruff (rules and format in tools/report/pyproject.toml; ruff.toml extends it to the whole
# repository). Files git ignores (build/, results/) are skipped.
ruff=$root/build/venv/bin/ruff
if [[ ! -x $ruff ]]; then
  echo "winnow style: $ruff is missing: run tools/setup.sh" >&2
  failed+=(python)
else
  if ((fix)); then
    "$ruff" check --fix --quiet . && "$ruff" format --quiet .
  fi
  "$ruff" check --quiet . || failed+=("python (ruff check)")
  "$ruff" format --check --quiet . || failed+=("python (ruff format --check; tools/style.sh --fix formats)")
fi

if ((${#failed[@]})); then
  printf 'winnow style: failed: %s\n' "${failed[@]}" >&2
  exit 1
fi
echo "winnow style: ok"
