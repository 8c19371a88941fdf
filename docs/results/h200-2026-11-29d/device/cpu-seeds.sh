#!/usr/bin/env bash
# The Redzone paper's CPU experiment (Fig. 7, suite `cpu`) with the paper's statistics: every point run
# once for each of 20 seeds (its §5: "Runs are repeated 20× with 20 different random seeds"), no warm-up,
# so the report draws the logarithmic mean per phase and the largest total. Build ffdef5f's suite `cpu`
# has one seed, 1 warm-up and 5 runs, so the flags say it; later builds' suite says it itself.
# Interrupted, a call resumes from exp/cpu-seeds.tgz (the $OUT/cpu-seeds.tgz of the call before; exp/ is
# untracked and travels with the tree) or, without it, from the records committed in ../cpu-seeds/cpu/.
# Carried: build-gz (winnow.xz), .gl, .libs.
# Usage: bash docs/results/h200-2026-11-29d/device/cpu-seeds.sh [SECONDS]  (at least 30 below the call's limit_s)
set -uo pipefail
trap 'tar czf "$OUT/cpu-seeds.tgz" repro; exit 143' TERM
. tools/device-env.sh
# The records name the host's thread count (and the algorithms' threads=16): on another host nothing would
# resume, and the bench would run all 2400 again beside the committed ones.
if [ "$(nproc)" != 16 ]; then echo "cpu-seeds.sh: $(nproc) cores here; the committed records are of a 16-core host (kind nvidia-h200)" >&2; exit 2; fi
# Resuming does not compare builds: another build's records would mix in unannounced.
case "$(build-carry/winnow --version)" in
  *ffdef5f*) ;;
  *) echo "cpu-seeds.sh: carry build ffdef5f as build-gz/winnow.xz; the committed records are all its" >&2; exit 2 ;;
esac
end=$(( $(date +%s) + ${1:-545} ))
mkdir -p repro/cpu-seeds/cpu
if [ -f exp/cpu-seeds.tgz ]; then
  tar xzf exp/cpu-seeds.tgz
else
  from=docs/results/h200-2026-11-29d/cpu-seeds/cpu
  gunzip -c $from/cpu.jsonl.gz > repro/cpu-seeds/cpu/cpu.jsonl
  cp $from/cpu.status.json repro/cpu-seeds/cpu/
fi
{ echo "$(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB"; build-carry/winnow --version; } | tee -a repro/calls.txt
start=$(date +%s)
timeout -s TERM $(( end - start )) build-carry/winnow bench --suite cpu --api cpu --seeds 20 --warmup 0 --warmup-time 0 \
  --reps 1 --out repro/cpu-seeds/cpu --resume > repro/bench.out 2> repro/bench.err
echo "bench exit $? after $(( $(date +%s) - start )) s" | tee -a repro/calls.txt
tail -3 repro/bench.err
tar czf "$OUT/cpu-seeds.tgz" repro
