#!/usr/bin/env bash
# Runs `winnow reproduce PAPER` on a Slurm cluster: N shards as a job array (one GPU a task), then,
# once all have succeeded, a job that merges them into OUT/merged and writes the report there.
#
# Usage: tools/slurm/submit.sh [OPTIONS] PAPER OUT N [-- REPRODUCE ARGS…]
#   --winnow PATH   the winnow executable (default: winnow on PATH, else this checkout's build/winnow);
#                   every node must see it, the report scripts and OUT at the same paths
#   --gres SPEC     what each job asks for (default gpu:1); --no-gres asks for none (CPU-only papers)
#   --sbatch ARG    one more sbatch argument for both jobs (repeatable: --sbatch=--partition=gpu)
# REPRODUCE ARGS go to every `winnow reproduce` (e.g. --quick). Prints the two job ids.
# To choose N: `winnow reproduce PAPER --out DIR --list` on the login node estimates the steps its GPUs
# will run too (docs/cli.md, SHARDING); N shards take about that over N, plus the calibration.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
winnow=$(command -v winnow || echo "$here/../../build/winnow")
gres=(--gres=gpu:1)
extra=()
usage() { awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0" >&2; exit 2; }
while [[ $# -gt 0 && $1 == --* ]]; do
  case $1 in
    --winnow) winnow=$2; shift 2 ;;
    --winnow=*) winnow=${1#*=}; shift ;;
    --gres) gres=(--gres="$2"); shift 2 ;;
    --gres=*) gres=(--gres="${1#*=}"); shift ;;
    --no-gres) gres=(); shift ;;
    --sbatch) extra+=("$2"); shift 2 ;;
    --sbatch=*) extra+=("${1#*=}"); shift ;;
    --) break ;;
    *) echo "submit.sh: unknown option $1" >&2; usage ;;
  esac
done
[[ $# -ge 3 ]] || usage
paper=$1 out=$2 n=$3
shift 3
[[ ${1:-} == -- ]] && shift
[[ $n =~ ^[1-9][0-9]*$ ]] || { echo "submit.sh: N must be a positive number, not '$n'" >&2; exit 2; }
[[ -x $winnow ]] || { echo "submit.sh: $winnow is not an executable (--winnow PATH)" >&2; exit 2; }
winnow=$(realpath "$winnow")
mkdir -p "$out/logs"
out=$(realpath "$out")
array=$(sbatch --parsable --array=0-$((n - 1)) "${gres[@]}" "${extra[@]}" --output="$out/logs/shard-%a.log" \
  "$here/shard.sbatch" "$winnow" "$paper" "$out" "$n" "$@")
array=${array%%;*} # "ID;CLUSTER" on a federation
merge=$(sbatch --parsable --dependency=afterok:"$array" "${gres[@]}" "${extra[@]}" --output="$out/logs/merge.log" \
  "$here/merge.sbatch" "$winnow" "$paper" "$out" "$n" "$@")
merge=${merge%%;*}
echo "array job $array ($n shards), merge job $merge; the report: $out/merged/report.md, the logs: $out/logs"
