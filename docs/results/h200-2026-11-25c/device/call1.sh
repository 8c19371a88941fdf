# Call 1: where vk/lookback's time goes. Driver statistics of every pipeline (WINNOW_VK_PIPELINE_STATS),
# then vk/lookback in a probe build made for this call only (not in the tree: a specialization
# constant set from $PROBE): 1 = nolook (the look-back replaced by a made-up offset), 2 = nostore (no
# staging, no stores), 3 = both (loads, ranks and counts alone); cuda/lookback and CUB beside them.
. tools/device-env.sh
set -x
W=build-carry/winnow
WINNOW_VK_PIPELINE_STATS=2 $W run --algo vk/ballot --case all:100; echo "rc=$?"
WINNOW_VK_PIPELINE_STATS=1 $W run --algo vk/ballot --case uniform:64K 2>&1 | tail -40
for tile in 256x4 128x16 128x8; do
  WINNOW_VK_PIPELINE_STATS=1 $W run --algo vk/lookback --case uniform:1M --param tile=$tile 2>&1 | grep "winnow::vk"
done
WINNOW_VK_PIPELINE_STATS=1 $W run --algo vkfrag/bt --case uniform:4M 2>&1 | grep "winnow::vk" | sort -u
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv
for n in 16M 256M; do
  for p in 0 1 2 3; do
    echo "== probe $p $n"; PROBE=$p build-carry/winnow-probe run --algo vk/lookback --case uniform:$n --warmup-time 1500 --reps 100 2>&1 | tail -9
  done
  for a in cuda/lookback cuda/cub_if vk/ballot; do
    echo "== $a $n"; $W run --algo $a --case uniform:$n --warmup-time 1500 --reps 100 2>&1 | tail -9
  done
done
