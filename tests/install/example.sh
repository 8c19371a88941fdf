#!/usr/bin/env bash
# Installs this build into a fresh prefix and builds and runs examples/ against it, as another
# project would: find_package(winnow), the public headers, the static libraries, the CLI.
# Usage: tests/install/example.sh BUILD_DIR SOURCE_DIR [ALGORITHM...]
set -euo pipefail
build=$1 source=$2
shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null
test -x "$work/prefix/bin/winnow"
test -f "$work/prefix/lib/cmake/winnow/winnowConfig.cmake"
"$work/prefix/bin/winnow" --version
"$work/prefix/bin/winnow" list --api cpu >/dev/null

# The examples see only the installed tree: no path into this checkout or its build.
cmake -S "$source/examples" -B "$work/examples" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" >"$work/configure.log" \
  || { cat "$work/configure.log"; exit 1; }
cmake --build "$work/examples"
"$work/examples/compact_buffer" "$@"
"$work/examples/own_algorithm" "$work/records.jsonl"
test "$(wc -l <"$work/records.jsonl")" -gt 0

# A component the installation lacks is an error at find_package, naming what it has.
mkdir -p "$work/missing"
cat >"$work/missing/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(missing LANGUAGES CXX)
find_package(winnow REQUIRED COMPONENTS metal)
CMAKE
if cmake -S "$work/missing" -B "$work/missing/build" -DCMAKE_PREFIX_PATH="$work/prefix" >"$work/missing.log" 2>&1; then
  echo "find_package(winnow COMPONENTS metal) succeeded"; exit 1
fi
grep -q "winnow component 'metal' is not in this installation" "$work/missing.log" || { cat "$work/missing.log"; exit 1; }
echo "installed tree: examples built and passed"
