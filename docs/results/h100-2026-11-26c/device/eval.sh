#!/bin/bash
# The adaptive algorithm with its choice on the device (choice=device) and read back (choice=host), on
# the H100: its GPU tests under the validation layer, then per api given the adaptive suite and the
# held-back real images at 4M with model=exp2/train/API/moreira.jsonl (the H100's moreira records of
# 2026-11-26), beside Binary-Tree at every block (the oracle of all 57 cases on all three paths in
# the full grid of docs/results/h100-2026-11-26b). Binaries come xz-compressed (the carry limit).
set -u
B=build-carry; mkdir -p $B
for f in build-gz2/*.xz; do
  n=$B/$(basename $f .xz)
  python3 -c "import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2],'wb'))" $f $n; chmod +x $n
done
. tools/device-env.sh
W=$B/winnow
R=adaptive-out
mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt; cat $R/gpu.txt
$W --version
WINNOW_DEBUG=1 timeout 60 $B/conformance_tests --gtest_filter='*adaptive*:*sample_pass*:*choice_pass*' > $R/conformance.log 2>&1
echo "conformance exit $?"; tail -1 $R/conformance.log
images=""; for f in hopper i_hopper dem mri logo; do images="$images file:exp2/images/$f.png"; done
for api in "$@"; do
  M=exp2/train/$api/moreira.jsonl
  start=$(date +%s)
  timeout 90 $W bench --suite adaptive --api $api --algo "$api/adaptive,$api/bt" --param "*/adaptive:model=$M" \
    --param '*/adaptive:choice=device,host' --out $R/$api > $R/$api-eval.log 2>&1
  echo "$api adaptive exit $? in $(( $(date +%s) - start )) s"; tail -1 $R/$api-eval.log
  start=$(date +%s)
  timeout 40 $W bench --suite adaptive --api $api --algo "$api/adaptive,$api/bt" --case $images --param "*/adaptive:model=$M" \
    --param '*/adaptive:choice=device,host' --name adaptive-images --out $R/$api > $R/$api-images.log 2>&1
  echo "$api images exit $? in $(( $(date +%s) - start )) s"; tail -1 $R/$api-images.log
done
tar czf $OUT/adaptive.tgz $R
