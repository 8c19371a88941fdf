#!/usr/bin/env bash
# The main job: installs or builds whatever is missing, then runs `winnow bench` (by default the
# `default` suite on every backend that can run on this machine). Arguments go to `winnow bench`,
# e.g. tools/bench.sh --suite cpu --out results/cpu
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
cmake --preset release >/dev/null
cmake --build --preset release
exec build/release/winnow bench "$@"
