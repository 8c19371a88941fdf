#!/bin/bash
# Call 1 of 2026-11-28 on the H200: choice=auto weighing the mean regret (the host's round trip
# included) on GL. The adaptive GPU tests under the validation layer; calibrate (round_trip_ns); the
# moreira suite at 4M on gl with train.sh's reduced grid (the model's records, this card's own); then
# the adaptive suite and the five held-back images on gl, choice=auto, host and none beside Binary-Tree
# at every block (the oracle).
# Carry build-gz (winnow.xz, conformance_tests.xz) .gl .libs exp2: `bash docs/results/h200-2026-11-28/device/call1.sh`.
set -u
. tools/device-env.sh
W=build-carry/winnow; R=call1; mkdir -p $R
pack() { tar czf $OUT/call1.tgz $R; }
trap 'pack; exit 143' TERM
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/gpu.txt
$W --version | tee $R/version.txt
WINNOW_DEBUG=1 timeout 120 build-carry/conformance_tests --gtest_filter='*adaptive*:*choice*:*speculat*' > $R/conformance.log 2>&1
echo "conformance exit $?"; tail -3 $R/conformance.log
timeout 60 $W calibrate --api gl > $R/calibrate-gl.txt 2>&1; echo "calibrate exit $?"; grep round_trip $R/calibrate-gl.txt
t0=$(date +%s)
timeout 200 $W bench --suite moreira --api gl --case '*:4M*' --param scan=hillis --param '*/rlz:search=fast' \
  --param '*/rlz:runs=doubling' --out $R/train/gl > $R/gl-train.log 2>&1
echo "gl train exit $? in $(( $(date +%s) - t0 )) s"; tail -1 $R/gl-train.log
pack
M=$R/train/gl/moreira.jsonl
images=""; for f in hopper i_hopper dem mri logo; do images="$images file:exp2/images/$f.png"; done
for what in images suite; do
  extra=(); name=adaptive; [ $what = images ] && { extra=(--case $images); name=adaptive-images; }
  t0=$(date +%s)
  timeout 150 $W bench --suite adaptive --api gl --algo "gl/adaptive,gl/bt" --warmup-time 400 "${extra[@]}" \
    --param "gl/adaptive:model=$M" --param "gl/adaptive:choice=auto,host,none" --name $name --out $R/adaptive/gl > $R/gl-$what.log 2>&1
  echo "gl $what exit $? in $(( $(date +%s) - t0 )) s"; tail -1 $R/gl-$what.log
  pack
done
