#!/bin/bash
# Call 1: the adaptive algorithm's GPU tests under validation, then the moreira suite at 4M on the
# three paths with a reduced grid (Hillis-Steele; RLZ doubling + fast; a copy on compute): the
# records the model is fitted from.
set -u
B=build-carry; mkdir -p $B
for f in build-gz/*.gz; do gunzip -c $f > $B/$(basename $f .gz); chmod +x $B/$(basename $f .gz); done
. tools/device-env.sh
W=$B/winnow
R=$OUT/adaptive
mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt; cat $R/gpu.txt
$W --version
WINNOW_DEBUG=1 $B/conformance_tests --gtest_filter='*adaptive*:*sample_pass*' > $R/conformance.log 2>&1; echo "conformance exit $?"
tail -3 $R/conformance.log
for api in gl vkfrag vk; do
  extra=""; [ $api = vk ] && extra="--param concat=copy"
  start=$(date +%s)
  timeout 165 $W bench --suite moreira --api $api --case '*:4M*' --param scan=hillis --param '*/rlz:search=fast' \
    --param '*/rlz:runs=doubling' $extra --out $R/$api > $R/$api-train.log 2>&1
  echo "$api train exit $? in $(( $(date +%s) - start )) s"; tail -1 $R/$api-train.log
done
