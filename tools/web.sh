#!/usr/bin/env bash
# winnow in the browser (issue 59): builds the web build (Emscripten: tools/web) where it is missing or
# stale, puts the page (tools/web/page) and the module it loads (winnow_web.js) into one folder, and
# serves that folder on this machine. Nothing it writes is in the source tree's tracked files.
# Usage: tools/web.sh [--build DIR] [--out DIR] [--port N] [--check]
#   --build DIR   the web build's folder (build-wasm)
#   --out DIR     the folder served (page in the build folder: build-wasm/page)
#   --port N      the port (8059); the page is at http://127.0.0.1:N/
#   --check       build and assemble only, print the folder, serve nothing (what the tests call)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build-wasm out="" port=8059 check=0
while (($#)); do
  case $1 in
    --build) build=$(realpath -m "$2"); shift 2 ;;
    --out) out=$(realpath -m "$2"); shift 2 ;;
    --port) port=$2; shift 2 ;;
    --check) check=1; shift ;;
    -h | --help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "tools/web.sh: unknown argument '$1' (--build DIR, --out DIR, --port N, --check)" >&2; exit 2 ;;
  esac
done
[[ $port =~ ^[0-9]+$ ]] || { echo "tools/web.sh: --port '$port': a number" >&2; exit 2; }
out=${out:-$build/page}

command -v emcmake >/dev/null || {
  echo "tools/web.sh: no emcmake (Debian's emscripten: tools/setup.sh installs it where the distribution has it)" >&2
  exit 1
}
# Emscripten's JS optimizer needs acorn (Debian's node-acorn); CMake sets NODE_PATH for each link.
# The native build's CXXFLAGS and LDFLAGS, where the environment has them, are not the web build's.
mkdir -p "$build"
if [[ ! -f $build/build.ninja ]]; then
  echo "tools/web.sh: configuring the web build in $build"
  env -u CXXFLAGS -u LDFLAGS emcmake cmake -S "$root" -B "$build" -G Ninja -DWINNOW_WEB=ON >"$build/web.sh.configure.log" 2>&1 ||
    { cat "$build/web.sh.configure.log"; echo "tools/web.sh: configuring the web build failed" >&2; exit 1; }
fi
env -u CXXFLAGS -u LDFLAGS cmake --build "$build" --parallel 2 >"$build/web.sh.build.log" 2>&1 ||
  { tail -n 60 "$build/web.sh.build.log"; echo "tools/web.sh: the web build failed (all of it in $build/web.sh.build.log)" >&2; exit 1; }

# The served folder: the page's files, then the build's modules beside them (copied, so that the folder
# can be carried elsewhere whole). Files no longer in the page are removed with the folder.
rm -rf "$out"
mkdir -p "$out"
cp -R "$root/tools/web/page/." "$out/"
shopt -s nullglob
modules=("$build"/tools/web/*.js "$build"/tools/web/*.wasm)
((${#modules[@]})) || { echo "tools/web.sh: the web build made no module in $build/tools/web" >&2; exit 1; }
cp "${modules[@]}" "$out/"

if ((check)); then
  echo "$out"
  exit 0
fi
echo "tools/web.sh: serving $out at http://127.0.0.1:$port/ (Ctrl-C stops)"
cd "$out" && exec python3 -m http.server "$port" --bind 127.0.0.1
