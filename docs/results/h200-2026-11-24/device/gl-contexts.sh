#!/usr/bin/env bash
# Issue 10 on the GPU: the GL backend on an OpenGL 4.5 core, an OpenGL 3.3 core and an OpenGL ES 3.1 context (WINNOW_GL_CONTEXT),
# each verified on the conformance cases of every shader-era algorithm, calibrated (`winnow calibrate
# --api gl`), and timed at 1M and 4M; the 4.5 path compared with this afternoon's run of the same sweep
# before direct state access was taken out (profilers-and-sweeps/sweep-gl-blocks.jsonl).
# Usage: OUT=... [CONTEXTS='gl45 gl33 es31'] bash docs/results/h200-2026-11-24/device/gl-contexts.sh   (carry build-carry, .gl, .libs)
set -uo pipefail
B=$PWD/build-carry
. tools/device-env.sh
O=/tmp/glctx; mkdir -p $O
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  $B/winnow --version
  for ctx in ${CONTEXTS:-gl45 gl33 es31}; do
    export WINNOW_GL_CONTEXT=$ctx
    echo "=== $ctx"
    $B/winnow list --api gl | sed -n 2p
    for a in horn jj rlz bt; do
      for c in all:1 none:1000 single:1000:at=0 alternating:1001 uniform:100003:p=0.02 uniform:100003:p=0.9 \
               runs:65537:valid=1:invalid=300 runs:65537:valid=300:invalid=1 finger:256K i_hand:256K \
               removal:100003:k=0.3:r=0.5 removal:1000:k=1 uniform:4M:p=0.5; do
        $B/winnow run --algo gl/$a --case $c --reps 1 --warmup 0 --warmup-time 0 >/dev/null 2>&1 \
          && echo "ok $ctx gl/$a $c" || echo "FAILED $ctx gl/$a $c (exit $?)"
      done
    done
    $B/winnow calibrate --api gl --out $O/calibrate-$ctx.jsonl
    $B/winnow bench --algo 'gl/*' --param block=32,256 --case uniform:1M --name sweep-$ctx --out $O 2>/dev/null | tail -12
    $B/winnow bench --algo 'gl/*' --param block=128 --case uniform:4M:p=0.5 --case finger:4M --name 4M-$ctx --out $O 2>/dev/null | tail -10
  done
  unset WINNOW_GL_CONTEXT
  if [ -f $O/sweep-gl45.jsonl ]; then
    echo "=== gl45 now against gl45 before the change (same sweep, this afternoon)"
    $B/winnow compare docs/results/h200-2026-11-24/profilers-and-sweeps/sweep-gl-blocks.jsonl $O/sweep-gl45.jsonl
  fi
  for other in gl33 es31; do
    if [ -f $O/4M-gl45.jsonl ] && [ -f $O/4M-$other.jsonl ]; then
      echo "=== $other against gl45"
      $B/winnow compare $O/4M-gl45.jsonl $O/4M-$other.jsonl
    fi
  done
} 2>&1 | tee $O/log.txt
tar czf $OUT/results.tgz -C $O .
