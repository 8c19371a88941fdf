#!/usr/bin/env bash
# Installs what winnow needs on a fresh Debian 12 or Ubuntu 24.04 machine: the Debian packages
# below (as root), then from PyPI into a virtual environment inside the build tree (build/venv): glad2,
# from which the GL backend generates its loader at build time, and ruff, tools/style.sh's Python linter
# and formatter.
# Run as non-root with packages missing, it prints the exact command to run instead.
# The optional packages (the web build: emscripten, node; chromium for its page) are installed where
# the distribution has them and skipped with a note where it has not; without them their tests (web.*)
# skip. WINNOW_SETUP_WEB=0 leaves them out (over 1 GB installed, most of it emscripten's clang and LLVM
# 14, then Chromium).
# Usage: tools/setup.sh            install whatever is missing (idempotent, quiet when nothing is)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

# What each package is for is in README.md ("Dependencies").
packages=(
  g++ cmake ninja-build pkg-config git          # toolchain
  libtbb-dev                                    # oneTBB: CPU algorithms, parallel std::remove_if
  libcli11-dev nlohmann-json3-dev libstb-dev    # CLI, records, writing PNGs (traces, galleries)
  libspng-dev                                   # reading PNG file: cases (hardened decoder)
  libgtest-dev libgmock-dev                     # tests
  python3 python3-venv python3-matplotlib       # glad2's venv, tools/report plots
  python3-pytest                                # tools/report's tests (report.* in CTest)
  clang-format-16 clang-tidy-16                 # tools/style.sh's C++ checks (style.check in CTest)
  libegl-dev libgl-dev libopengl-dev libglfw3-dev          # OpenGL/EGL through glvnd; GLFW for the viewer
  xvfb xauth                                    # a display for testing the viewer
  clang-16 libclang-rt-16-dev                   # libFuzzer and the sanitizers for the fuzz preset
  libgl1-mesa-dri libegl-mesa0                  # Mesa llvmpipe: OpenGL without a GPU
  libvulkan-dev glslc spirv-tools               # Vulkan loader/headers, GLSL → SPIR-V
  vulkan-validationlayers mesa-vulkan-drivers   # validation layer, Mesa lavapipe: Vulkan without a GPU
  slurm-wlm munge                               # a one-node Slurm for testing tools/slurm (sharded reproduce)
)
# Optional: the web build (WINNOW_WEB: common/ as WebAssembly for the browser, tools/web) and its tests.
# Debian's emscripten 3.1.6 (which needs node-acorn for its optimizer; nodejs runs the test); headless
# Chromium driven by Selenium for the page's test (tests/web/browser.py).
optional=()
[[ ${WINNOW_SETUP_WEB:-1} == 0 ]] || optional=(emscripten node-acorn nodejs chromium chromium-driver python3-selenium)
glad_version=2.0.8
ruff_version=0.17.6  # a newer ruff may check or format differently: move on purpose

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
missing=() missing_optional=()
for p in "${packages[@]}"; do installed "$p" || missing+=("$p"); done
for p in "${optional[@]}"; do installed "$p" || missing_optional+=("$p"); done

if ((${#missing[@]} + ${#missing_optional[@]})) && ((EUID != 0)); then
  if ((${#missing[@]})); then
    echo "winnow setup: missing packages: ${missing[*]}" >&2
    echo "winnow setup: run this as root, then try again:" >&2
    echo "  sudo $root/tools/setup.sh" >&2
    exit 1
  fi
  echo "winnow setup: optional packages missing (the web build's tests skip): ${missing_optional[*]}; sudo $root/tools/setup.sh installs them" >&2
elif ((${#missing[@]} + ${#missing_optional[@]})); then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  if ((${#missing[@]})); then
    echo "winnow setup: installing ${missing[*]}"
    apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
  # Optional packages: those the distribution has (Ubuntu's are in universe), and never a failed setup.
  offered=()
  for p in "${missing_optional[@]}"; do
    if apt-cache show "$p" >/dev/null 2>&1; then offered+=("$p"); else echo "winnow setup: optional $p: not offered here, skipped"; fi
  done
  if ((${#offered[@]})); then
    echo "winnow setup: installing (optional) ${offered[*]}"
    apt-get install -y -qq --no-install-recommends "${offered[@]}" ||
      echo "winnow setup: optional ${offered[*]} could not be installed; the web build's tests will skip" >&2
  fi
fi

venv=$root/build/venv
if ! "$venv/bin/python" -c "import glad" 2>/dev/null; then
  echo "winnow setup: glad2 $glad_version into $venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "glad2==$glad_version"
fi
if [[ "$("$venv/bin/ruff" --version 2>/dev/null)" != "ruff $ruff_version" ]]; then
  echo "winnow setup: ruff $ruff_version into $venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "ruff==$ruff_version"
fi
