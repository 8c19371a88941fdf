#!/usr/bin/env bash
# Builds the fuzz preset and runs each libFuzzer target for a short, fixed time from its seeds
# (tests/fuzz/seeds/TARGET), so that a regression in a parser or decoder is caught in CI. A crash,
# leak, sanitizer report or out-of-memory (over 2 GiB) fails it and prints the reproducer's path.
# Usage: tests/fuzz/short_runs.sh [SECONDS_PER_TARGET]   (default 20)
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-20}
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz --target fuzz_spec fuzz_suite fuzz_param fuzz_image fuzz_record
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for t in spec suite param image record; do
  mkdir -p "$work/$t"
  seeds=(tests/fuzz/seeds/$t)
  [ $t = suite ] && seeds+=(tools/winnow/suites) # the shipped suites seed the suite fuzzer (read only)
  if ! build/fuzz/fuzz/fuzz_$t -max_total_time="$seconds" -rss_limit_mb=2048 -artifact_prefix="$work/" \
       "$work/$t" "${seeds[@]}" >"$work/$t.log" 2>&1; then
    tail -40 "$work/$t.log"
    mkdir -p build/fuzz/findings && cp "$work"/crash-* "$work"/leak-* "$work"/oom-* "$work"/timeout-* build/fuzz/findings/ 2>/dev/null || true
    echo "fuzz_$t: FAILED (reproducers copied to build/fuzz/findings/)"
    exit 1
  fi
  echo "fuzz_$t: $(grep -E '^#[0-9]+.*DONE' "$work/$t.log" | sed -E 's/^#([0-9]+)[[:space:]]+DONE[[:space:]]+/\1 executions, /')"
done
