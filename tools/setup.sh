#!/usr/bin/env bash
# Installs what winnow needs on a fresh Debian 12 or Ubuntu 24.04 machine: the Debian packages
# below (as root), then from PyPI into a virtual environment inside the build tree (build/venv): glad2,
# from which the GL backend generates its loader at build time, and ruff, tools/style.sh's Python linter
# and formatter.
# Run as non-root with packages missing, it prints the exact command to run instead.
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
glad_version=2.0.8
ruff_version=0.17.6  # a newer ruff may check or format differently: move on purpose

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  if ((EUID != 0)); then
    echo "winnow setup: missing packages: ${missing[*]}" >&2
    echo "winnow setup: run this as root, then try again:" >&2
    echo "  sudo $root/tools/setup.sh" >&2
    exit 1
  fi
  echo "winnow setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
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
