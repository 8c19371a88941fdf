#!/usr/bin/env bash
# `winnow reproduce redzone` across calls of at most 10 minutes on one kind of card (H100: resuming keeps
# only records of the same device). exp/redzone.tgz, when carried, holds repro/ from the call before;
# each call leaves repro/ packed in $OUT/redzone.tgz for the next.
set -uo pipefail
B=build-carry; mkdir -p $B; for f in build-gz/*.gz; do gunzip -c $f > $B/$(basename $f .gz); chmod +x $B/$(basename $f .gz); done
. tools/device-env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
[ -f exp/redzone.tgz ] && tar xzf exp/redzone.tgz
timeout -s TERM "${1:-545}" $B/winnow reproduce redzone --out repro/redzone 2>&1 | tail -6
tar czf "$OUT/redzone.tgz" repro
