#!/usr/bin/env bash
# One device call: the host side of 2 GiB records before and after 351edb1 (large host arrays advised
# onto transparent huge pages before their first touch). The same cases with build 44a8abb (the whole
# Redzone run's) and with 351edb1, one after the other, twice, each record verified as bench always
# does; then `winnow compare` on the timed runs, which the change must leave alone.
# Carry build-gz (winnow-44a8abb.xz, winnow.xz) .gl .libs. Usage: OUT=... bash host_memory.sh
set -uo pipefail
B=build-carry
. tools/device-env.sh
args=(--algo cuda/redzone2,cuda/cub_if --case removal:512M:k=0.1:r=1:seed=1 --case removal:512M:k=0.9:r=uniform:seed=1)
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  for round in 1 2; do
    for build in winnow-44a8abb winnow; do
      $B/$build --version
      timeout 200 $B/$build bench "${args[@]}" --out $OUT/$build-$round > $OUT/$build-$round.log 2>&1
      echo "bench: exit $? at $SECONDS s"; tail -2 $OUT/$build-$round.log
    done
  done
  $B/winnow compare $OUT/winnow-44a8abb-2 $OUT/winnow-2 2>&1 | tail -12
} 2>&1 | tee $OUT/host_memory.log
# The device returns only a few files: the records as one archive.
tar cJf $OUT/records.tar.xz -C $OUT --exclude='*.lock' --exclude='*.csv' winnow-44a8abb-1 winnow-1 winnow-44a8abb-2 winnow-2 && rm -rf $OUT/winnow-44a8abb-1 $OUT/winnow-1 $OUT/winnow-44a8abb-2 $OUT/winnow-2
