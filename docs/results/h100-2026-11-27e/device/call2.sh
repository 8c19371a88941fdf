#!/bin/bash
# EXPERIMENT (2026-11-27e), part 1: the concatenation's output laid out in pairs (element t at column
# (t >> 1) mod W, row 2 ((t >> 1) div W) + (t & 1)), so that each block's span is a rectangle two rows
# high: on vkfrag, shaders pairs/concat_pairs.{vert,frag} loaded by WINNOW_VK_SPIRV_DIR in place of
# concat.{vert,frag} (compiled as the embedded ones, into exp/spv/pairs/concat_{vert,frag}.spv), and
# WINNOW_EXP_PAIRS=1 reads the output back in that layout, so the records verify.
# Part 2: GL's adaptive algorithm on the logo — what the 15-20 µs are that the chosen
# candidate's first phases take beyond its fixed run. Variants by environment, a patch of b524542
# (experiment.patch beside this script, never committed): WINNOW_EXP_KICK=N hands the
# device the chosen candidate's passes every N (8 as committed, 0 never), WINNOW_EXP_MULTIBIND=1 binds
# a pass's textures by one glBindTextures, WINNOW_EXP_TRACE=1 prints the host's µs to record them.
# Carry build-gz2 (the patched binary, xz) .gl .libs exp2; `bash docs/results/h100-2026-11-27e/device/call2.sh`.
set -u
. tools/device-env.sh
mkdir -p build-carry; python3 -c "import lzma, shutil; shutil.copyfileobj(lzma.open('build-gz2/winnow-exp.xz'), open('build-carry/winnow-exp', 'wb'))"; chmod +x build-carry/winnow-exp
W=build-carry/winnow-exp; R=call2; mkdir -p $R
pack() { tar czf $OUT/call2.tgz $R; }
trap 'pack; exit 143' TERM
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $R/gpu.txt
M=docs/results/h100-2026-11-26b/adaptive/gl/moreira.jsonl
LOGO=file:exp2/images/logo.png
one() { # name, env…: the adaptive run on the logo, choice on the host
  local name=$1; shift
  env "$@" WINNOW_EXP_TRACE=1 timeout 60 $W run --algo gl/adaptive --case $LOGO --param model=$M --param choice=host \
    --reps 40 --warmup-time 300 --out $R/$name.jsonl > $R/$name.txt 2>&1
  printf '%-8s ' $name; grep -E '^(sample|choose|count|reduce|traverse|concat|total) ' $R/$name.txt | awk '{printf "%s %s %s  ", $1, $2, $3}'
  grep '^EXP record' $R/$name.txt | awk '{print $5}' | sort -n | awk '{a[NR]=$1} END {printf "record median %.1f us\n", a[int((NR+1)/2)]}'
}
fixed() { local name=$1 block=$2; shift 2
  env "$@" timeout 60 $W run --algo gl/bt --case $LOGO --param block=$block --reps 40 --warmup-time 300 --out $R/$name.jsonl > $R/$name.txt 2>&1
  printf '%-8s ' $name; grep -E '^(count|reduce|traverse|concat|total) ' $R/$name.txt | awk '{printf "%s %s %s  ", $1, $2, $3}'; echo
}
summary() { python3 - "$@" <<'PY'
import json, sys
for f in sys.argv[1:]:
    rs = [json.loads(l) for l in open(f)]
    ph = {}
    for r in rs:
        for p in r["phases"]: ph.setdefault(p["name"], []).append(p["median_ns"])
        ph.setdefault("total", []).append(r["total"]["median_ns"])
    bad = sum(not r["verified"] for r in rs)
    print(f.split("/")[-1], len(rs), "records,", bad, "failed;", "  ".join(f"{k} {sum(v) / len(v) / 1e3:.1f}" for k, v in ph.items()), "(µs, mean)")
PY
}
pb() { local name=$1 algo=$2 block=$3 concat=$4; shift 4
  env "$@" timeout 90 $W bench --suite paths --algo $algo --case '*:4M' --param block=$block --param concat=$concat --out $R/paths --name $name > $R/paths-$name.log 2>&1
  summary $R/paths/$name.jsonl
}
P=(WINNOW_EXP_PAIRS=1 WINNOW_VK_SPIRV_DIR=exp/spv/pairs)
{
  for B in 128 512; do
    pb gl-bt-lines-$B gl/bt $B lines; pb gl-bt-rects-$B gl/bt $B rects
    pb bt-lines-$B vkfrag/bt $B lines; pb bt-rects-$B vkfrag/bt $B rects; pb bt-pairs-$B vkfrag/bt $B rects "${P[@]}"
  done
  for a in horn jj rlz; do pb $a-lines-128 vkfrag/$a 128 lines; pb $a-pairs-128 vkfrag/$a 128 rects "${P[@]}"; done
  pb bt-lines-128b vkfrag/bt 128 lines
} 2>&1 | tee $R/pairs-log.txt
pack
{
  fixed bt2048 2048; fixed bt2048mb 2048 WINNOW_EXP_MULTIBIND=1; fixed bt512 512
  one base; one k1 WINNOW_EXP_KICK=1; one k0 WINNOW_EXP_KICK=0; one k2 WINNOW_EXP_KICK=2; one k4 WINNOW_EXP_KICK=4
  one mb WINNOW_EXP_MULTIBIND=1; one mbk1 WINNOW_EXP_MULTIBIND=1 WINNOW_EXP_KICK=1; one mbk0 WINNOW_EXP_MULTIBIND=1 WINNOW_EXP_KICK=0
  one base2
} 2>&1 | tee $R/log.txt
pack
images=""; for f in hopper i_hopper dem mri logo; do images="$images file:exp2/images/$f.png"; done
for v in base mb k1; do
  e=(); [ $v = mb ] && e=(WINNOW_EXP_MULTIBIND=1); [ $v = k1 ] && e=(WINNOW_EXP_KICK=1)
  env "${e[@]}" timeout 100 $W bench --suite adaptive --api gl --algo "gl/adaptive,gl/bt" --warmup-time 400 --case $images \
    --param "*/adaptive:model=$M" --name images-$v --out $R/adaptive > $R/images-$v.log 2>&1
  echo "images $v exit $?"; pack
done
