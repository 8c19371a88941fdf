#!/usr/bin/env bash
# The afternoon's device call: (1) cuda/lookback after its staging shared memory moved to prepare
# (commit 4593c71): the tiles suite again, every record verified, compared with the morning's run
# by `winnow compare`; (2) the phases as profilers see them on NVIDIA's drivers: NVTX ranges under
# Nsight Systems (when nsys is installed there) and Vulkan debug labels through the test layer of
# tests/vulkan/label_layer.cpp; (3) issue 16's sweep and --max-noise on the GPU.
# Usage: OUT=... bash docs/results/h200-2026-11-24/device/profilers-and-sweeps.sh [tiles] [nvtx] [labels] [sweeps]
# (none: all; carry build-carry/ with winnow, label_layer/ and libwinnow_nvtx_injection.so, .gl, .libs)
set -uo pipefail
B=$PWD/build-carry
. tools/device-env.sh
O=/tmp/o; mkdir -p $O
want() { [ $# -eq 0 ] || [[ " $ALL " == *" $1 "* ]]; }
ALL="$*"; [ -z "$ALL" ] && ALL="tiles nvtx labels sweeps"
{
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader
  $B/winnow --version
  if want tiles; then
  echo "=== (1) lookback tiles, again"
  $B/winnow bench --suite cuda/bench/lookback_tiles.json --api cuda --out $O/tiles 2>$O/tiles-progress.log | tail -2
  $B/winnow compare docs/results/h200-2026-11-24/lookback/lookback_tiles.jsonl $O/tiles/lookback_tiles.jsonl
  fi
  if want nvtx; then
  echo "=== (2) NVTX ranges"
  nsys=$(command -v nsys || ls /usr/local/cuda*/bin/nsys /opt/nvidia/nsight-systems/*/bin/nsys 2>/dev/null | head -1)
  if [ -n "$nsys" ]; then
    $nsys profile -t nvtx,cuda -o /tmp/nvtx --force-overwrite true \
      $B/winnow run --algo cuda/lookback --case uniform:16M:p=0.5 --reps 3 --warmup 1 >/dev/null
    $nsys stats -q -r nvtx_sum /tmp/nvtx.nsys-rep
  fi
  # What Nsight Systems is handed, through NVTX's own injection interface (tests/cuda/nvtx_injection.cpp).
  for a in cuda/lookback cuda/redzone2 cuda/billeter cuda/cub_if; do
    rm -f /tmp/nvtx.txt
    NVTX_INJECTION64_PATH=$B/libwinnow_nvtx_injection.so WINNOW_NVTX_LOG=/tmp/nvtx.txt \
      $B/winnow run --algo $a --case uniform:4M:p=0.5 --reps 2 --warmup 0 --warmup-time 0 | grep -E '^(device|result)|^[a-z_]+ +[0-9.]+ [µm]s'
    echo "$a ranges seen by the injection: $(sort /tmp/nvtx.txt | uniq -c | tr -s ' \n' ' ')"
  done
  fi
  if want labels; then
  echo "=== (2) Vulkan debug labels"
  for a in vk/ballot vk/lookback vk/horn vkfrag/rlz; do
    rm -f /tmp/labels.txt
    VK_ADD_LAYER_PATH=$B/label_layer VK_INSTANCE_LAYERS=VK_LAYER_WINNOW_labels WINNOW_LABEL_LOG=/tmp/labels.txt \
      $B/winnow run --algo $a --case uniform:4M:p=0.5 --reps 1 --warmup 0 | grep -E '^(device|result)'
    echo "$a labels seen by the layer: $(sort /tmp/labels.txt | uniq -c | tr -s ' \n' ' ')"
  done
  fi
  if want sweeps; then
  echo "=== (3) sweeps"
  $B/winnow bench --algo 'gl/*' --param block=32,256 --case uniform:1M --max-noise 2 --timeout 5 --out $O/sweep 2>$O/sweep-progress.log
  $B/winnow bench --algo 'cuda/lookback,cuda/cub_if' --param cuda/lookback:tile=128x8m8,256x4 --case uniform:256M:p=0.5 \
    --max-noise 1 --timeout 10 --name noise --out $O/noise 2>$O/noise-progress.log
  fi
} 2>&1 | tee $O/log.txt
tar czf $OUT/results.tgz -C $O .
