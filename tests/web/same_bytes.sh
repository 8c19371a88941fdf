#!/usr/bin/env bash
# The same corpus in the browser as natively (issue 59). Builds the web build (WINNOW_WEB: common's
# corpus, reference and verifier, compiled to wasm by Debian's emscripten) into WORK, then runs each
# program on both sides and wants the same lines:
#   corpus_lines: every conformance case and tests/web/specs.txt's, made natively (corpus_lines.cpp)
#     and through the page's module under node (corpus_lines.js): canonical spec, sizes, checksum,
#     the reference and the verifier's verdicts; the messages of refused specs;
#   charconv_lines: compat.hpp's to_chars and from_chars for double against the std ones.
# Skipped (exit 77) with the reason where emscripten, node or node-acorn is missing.
# Usage: same_bytes.sh NATIVE_CORPUS_LINES NATIVE_CHARCONV_LINES SOURCE_DIR WORK_DIR
set -euo pipefail
native_corpus=$1 native_charconv=$2 src=$3 work=$4

skip() {
  echo "web.same_bytes: skipped: $1"
  exit 77
}
command -v emcmake >/dev/null || skip "no emcmake (Debian's emscripten; tools/setup.sh installs it where the distribution has it)"
command -v node >/dev/null || skip "no node (Debian's nodejs)"
NODE_PATH=/usr/share/nodejs node -e 'require("acorn")' 2>/dev/null ||
  skip "node finds no acorn in /usr/share/nodejs (Debian's node-acorn), which emscripten's optimizer needs"

mkdir -p "$work"
start=$SECONDS
# The native build's CXXFLAGS and LDFLAGS, where the environment has them, are not the web build's.
if ! env -u CXXFLAGS -u LDFLAGS emcmake cmake -S "$src" -B "$work/build" -G Ninja -DWINNOW_WEB=ON \
  >"$work/build.log" 2>&1 ||
  ! cmake --build "$work/build" --parallel 2 >>"$work/build.log" 2>&1; then
  cat "$work/build.log"
  echo "web.same_bytes: the web build failed"
  exit 1
fi
echo "web.same_bytes: web build $((SECONDS - start)) s"

status=0
compare() { # NAME: $work/NAME.native against $work/NAME.wasm
  local lines
  lines=$(wc -l <"$work/$1.native")
  if ! diff -u "$work/$1.native" "$work/$1.wasm" >"$work/$1.diff"; then
    head -c 20000 "$work/$1.diff"
    echo "web.same_bytes: $1: the wasm's lines differ from the native ones (above; all in $work/$1.diff)"
    status=1
  else
    echo "web.same_bytes: $1: $lines lines, the same natively and in wasm"
  fi
}

start=$SECONDS
"$native_corpus" "$src/tests/web/specs.txt" >"$work/corpus.native"
node "$src/tests/web/corpus_lines.js" "$work/build/tools/web/winnow_web.js" "$src/tests/web/specs.txt" \
  >"$work/corpus.wasm"
compare corpus
"$native_charconv" >"$work/charconv.native"
node "$work/build/tests/web/web_charconv_lines.js" >"$work/charconv.wasm"
compare charconv
echo "web.same_bytes: runs $((SECONDS - start)) s"
exit "$status"
