#!/bin/bash
# The choice tests on the H100 (validation on), then vk and vkfrag adaptive device vs host on three cases.
set -u
B=build-carry; mkdir -p $B
for f in build-gz2/*.xz; do
  n=$B/$(basename $f .xz)
  python3 -c "import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2],'wb'))" $f $n; chmod +x $n
done
. tools/device-env.sh
W=$B/winnow
R=$OUT/check; mkdir -p $R
$W --version
WINNOW_DEBUG=1 timeout 60 $B/conformance_tests --gtest_filter='shader_era.*' > $R/conformance.log 2>&1
echo "conformance exit $?"; grep -E "did not run|ran$|FAILED|PASSED" $R/conformance.log | head -20
for api in vk vkfrag; do
  timeout 40 $W bench --suite adaptive --api $api --algo "$api/adaptive,$api/bt" --case 'finger:*' --case 'i_bunny:*' --case 'uniform:4M:p=0.05*' \
    --param "*/adaptive:model=exp2/train/$api/moreira.jsonl" --param '*/adaptive:choice=device,host' --param '*/bt:block=512,2048,128' \
    --out $R/$api > $R/$api.log 2>&1; echo "$api exit $?"; grep -E "adaptive|bt " $R/$api.log | tail -12
done
