#!/usr/bin/env bash
# tools/slurm on a real Slurm: a one-node cluster in a temporary folder (slurm_cluster.sh) runs
# `winnow reproduce cpu --quick` as 3 array tasks and the merge-and-report job submit.sh chains
# after them; the merged folder then holds the records of the unsharded run in ONE
# (reproduce_unsharded.sh) in its order and draws the same report from them (same_report.py). Skips
# (exit 77) without slurm-wlm and munge, or not as root.
# Usage: slurm_reproduce.sh WINNOW SOURCE_DIR ONE
set -euo pipefail
winnow=$1 root=$2 one=$3
for tool in slurmctld slurmd munged sbatch; do
  command -v "$tool" >/dev/null ||
    { echo "SKIP: $tool is not installed (apt-get install slurm-wlm munge; tools/setup.sh lists them)"; exit 77; }
done
[[ $(id -u) == 0 ]] || { echo "SKIP: the test cluster runs its daemons as root (SlurmUser=root)"; exit 77; }
dir=$(mktemp -d)
# shellcheck source=tests/slurm/slurm_cluster.sh
source "$root/tests/slurm/slurm_cluster.sh"
SLURM_TEST_DIR=$dir/cluster
trap 'slurm_stop; rm -rf "$dir"' EXIT
slurm_start "$dir/cluster"

"$root/tools/slurm/submit.sh" --winnow "$winnow" --no-gres cpu "$dir/run" 3 -- --quick
for _ in $(seq 1200); do # up to 4 minutes: the tasks share the cores with other tests
  [[ -z $(squeue -h 2>/dev/null) ]] && break
  sleep 0.2
done
if [[ -n $(squeue -h) || ! -f $dir/run/merged/report.md ]]; then
  echo "the jobs did not finish with a report:"; squeue; tail -n 5 "$dir"/run/logs/*.log; exit 1
fi
for i in 0 1 2; do
  grep -q "shard $i/3 done" "$dir/run/logs/shard-$i.log" || { echo "shard $i did not run:"; cat "$dir/run/logs/shard-$i.log"; exit 1; }
done
python3 "$root/tests/report/same_report.py" "$one" "$dir/run/merged" "$root/tools/report/reproduce.py"
