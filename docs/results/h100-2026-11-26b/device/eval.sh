#!/bin/bash
# Per api given: the moreira suite at 4M (reduced grid, as train.sh) unless exp/train/API holds its
# records, then the adaptive suite and the held-back real images with model=pass and model=those records.
set -u
B=build-carry; mkdir -p $B
for f in build-gz/*.gz; do gunzip -c $f > $B/$(basename $f .gz); chmod +x $B/$(basename $f .gz); done
. tools/device-env.sh
W=$B/winnow
R=adaptive-out
mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt; cat $R/gpu.txt
WINNOW_DEBUG=1 $B/conformance_tests --gtest_filter='*adaptive*:*sample_pass*' > $R/conformance.log 2>&1; echo "conformance exit $?"; tail -1 $R/conformance.log
images=""; for f in hopper i_hopper dem mri logo; do images="$images file:exp/images/$f.png"; done
for api in "$@"; do
  M=exp/train/$api/moreira.jsonl
  if [ ! -f $M ]; then
    extra=""; [ $api = vk ] && extra="--param concat=copy"
    start=$(date +%s)
    timeout 165 $W bench --suite moreira --api $api --case '*:4M*' --param scan=hillis --param '*/rlz:search=fast' \
      --param '*/rlz:runs=doubling' $extra --out $R/$api > $R/$api-train.log 2>&1
    echo "$api train exit $? in $(( $(date +%s) - start )) s"; tail -1 $R/$api-train.log
    M=$R/$api/moreira.jsonl
  fi
  start=$(date +%s)
  timeout 150 $W bench --suite adaptive --api $api --param "*/adaptive:model=pass,$M" --out $R/$api > $R/$api-eval.log 2>&1
  echo "$api adaptive exit $? in $(( $(date +%s) - start )) s"; tail -1 $R/$api-eval.log
  start=$(date +%s)
  timeout 60 $W bench --suite adaptive --api $api --case $images --param "*/adaptive:model=pass,$M" --name adaptive-images \
    --out $R/$api > $R/$api-images.log 2>&1
  echo "$api images exit $? in $(( $(date +%s) - start )) s"; tail -1 $R/$api-images.log
done
tar czf $OUT/adaptive.tgz $R
