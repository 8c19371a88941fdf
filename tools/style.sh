#!/usr/bin/env bash
# The repository's style checks, one section per language; exit 1 when any fails, naming which.
# Usage: tools/style.sh          check (CTest runs this as style.check)
#        tools/style.sh --fix    rewrite what the tools can fix, then check
# The tools come from tools/setup.sh (ruff: build/venv; clang-format-16, clang-tidy-16). Each language's
# checks are a section of their own below, appending to `failed`.
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

# --- C++, CUDA: clang-format 16 (.clang-format) over every tracked source, and clang-tidy 16
# (.clang-tidy) over the host translation units of the ci build's compile_commands.json. A whole
# clang-tidy pass costs about 15 minutes of one core here, so by default each run takes the eighth
# of the units whose turn it is today (UTC day of the year mod 8), and every unit is checked within
# eight days; WINNOW_TIDY=all checks every unit (do so before committing a change to many files),
# WINNOW_TIDY=off none. CUDA units (.cu) are left to nvcc: clang-tidy cannot read its commands.
mapfile -t cxx < <(git ls-files '*.cpp' '*.hpp' '*.cu' '*.cuh' '*.h' ':!:tests/fuzz/seeds/**')
if ! command -v clang-format-16 >/dev/null; then
  echo "winnow style: clang-format-16 is missing: run tools/setup.sh" >&2
  failed+=("c++ (clang-format-16 missing)")
else
  if ((fix)); then clang-format-16 -i "${cxx[@]}"; fi
  clang-format-16 --dry-run --Werror "${cxx[@]}" || failed+=("c++ (clang-format; tools/style.sh --fix formats)")
fi
tidy=${WINNOW_TIDY:-daily}
commands=${WINNOW_STYLE_BUILD:-$root/build/ci}/compile_commands.json
if [[ $tidy != off ]]; then
  if ! command -v run-clang-tidy-16 >/dev/null; then
    echo "winnow style: run-clang-tidy-16 is missing: run tools/setup.sh" >&2
    failed+=("c++ (clang-tidy-16 missing)")
  elif [[ ! -f $commands ]]; then
    echo "winnow style: $commands is missing: configure the ci preset first (cmake --preset ci)" >&2
    failed+=("c++ (no compile_commands.json for clang-tidy)")
  else
    mapfile -t units < <(python3 - "$commands" "$root" "$tidy" <<'PY'
import json, os, sys, time
commands, root, which = sys.argv[1:]
units = sorted({e["file"] for e in json.load(open(commands))})
units = [u for u in units if u.startswith(root + "/") and not u.startswith(root + "/build") and not u.endswith(".cu")
         and os.path.exists(u)]
if which != "all":
    turn = time.gmtime().tm_yday % 8
    units = units[turn::8]
print("\n".join(units))
PY
    )
    echo "winnow style: clang-tidy over ${#units[@]} units ($tidy)"
    run-clang-tidy-16 -p "$(dirname "$commands")" -quiet -j "$(nproc)" "${units[@]}" > "$root/build/clang-tidy.log" 2>&1 ||
      { grep -E 'error:|warning:' "$root/build/clang-tidy.log" | sort -u >&2
        failed+=("c++ (clang-tidy; build/clang-tidy.log has the whole output)"); }
  fi
fi

if ((${#failed[@]})); then
  printf 'winnow style: failed: %s\n' "${failed[@]}" >&2
  exit 1
fi
echo "winnow style: ok"
