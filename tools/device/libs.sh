#!/usr/bin/env bash
# Fetches, as .deb files, the runtime libraries a build made here needs on a GPU machine that has the
# NVIDIA driver and CUDA but no Debian packages (README.md, "Running on a GPU"), into two folders at
# the repository root that git ignores (.git/info/exclude):
#   .gl/    the GL, EGL and Vulkan loaders (glvnd, the Vulkan loader): unpacked into / over there
#   .libs/  the rest (oneTBB, hwloc, stb, GLFW and its X11 client libraries, the Khronos validation
#           layer): unpacked under /tmp there, never into /, so the machine's own tools keep working
# Usage, from anywhere in the repository:  tools/device/libs.sh [extra-package ...]   (extras go to .libs/)
set -euo pipefail
root=$(git rev-parse --show-toplevel)
cd "$root"
exclude=$(git rev-parse --git-path info/exclude)
mkdir -p "$(dirname "$exclude")"
for d in .gl .libs; do
  grep -qx "/$d/" "$exclude" 2>/dev/null || echo "/$d/" >> "$exclude"
done
mkdir -p .gl .libs /tmp/winnow-amd64-lists/partial
apt=(apt-get -oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/winnow-amd64-lists)
"${apt[@]}" update -qq
fetch() { # folder package...
  local dir=$1
  shift
  (cd "$dir" && "${apt[@]}" download "$@" 2>&1 | grep -v '^W: Download is performed unsandboxed' || true)
}
fetch .gl libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2
fetch .libs libtbb12 libtbbmalloc2 libtbbbind-2-5 libhwloc15 libstb0 libspng0 vulkan-validationlayers \
  libglfw3 libx11-6 libxcb1 libxau6 libxdmcp6 libbsd0 libmd0 "$@"
ls -1 .gl .libs
