#!/usr/bin/env bash
# A one-node Slurm cluster in a temporary folder, for the tests of tools/slurm: munged with its own
# key and socket, slurmctld and slurmd with a slurm.conf of their own (ports of their own, no
# systemd, no cgroups, no GPUs). Sourced: slurm_start DIR starts it and exports SLURM_CONF;
# slurm_stop stops what slurm_start started, by pid. Needs root (SlurmUser=root) and the Debian
# packages slurm-wlm and munge.

slurm_stop() {
  local pid
  for f in "$SLURM_TEST_DIR"/slurmd.pid "$SLURM_TEST_DIR"/slurmctld.pid "$SLURM_TEST_DIR"/munged.pid; do
    [[ -s $f ]] || continue
    pid=$(<"$f")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  done
}

slurm_start() {
  SLURM_TEST_DIR=$1
  local d=$SLURM_TEST_DIR host port
  host=$(hostname -s)
  mkdir -p "$d/state" "$d/spool" "$d/munge"
  chmod 700 "$d/munge"
  mungekey --create --keyfile="$d/munge/munge.key" --force >/dev/null 2>&1 ||
    dd if=/dev/urandom of="$d/munge/munge.key" bs=1024 count=1 status=none
  chmod 600 "$d/munge/munge.key"
  munged --key-file="$d/munge/munge.key" --socket="$d/munge/munge.sock" --pid-file="$d/munged.pid" \
         --log-file="$d/munged.log" --seed-file="$d/munge/munge.seed" --force
  # Ports of our own, unlikely to be taken: two from the range below the ephemeral one.
  port=$((20000 + RANDOM % 20000))
  cat >"$d/slurm.conf" <<CONF
ClusterName=winnowtest
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$d/munge/munge.sock
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
SlurmctldPort=$port
SlurmdPort=$((port + 1))
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.pid
SlurmctldLogFile=$d/slurmctld.log
SlurmdLogFile=$d/slurmd.log
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4
CONF
  export SLURM_CONF=$d/slurm.conf
  slurmctld -f "$d/slurm.conf" -i
  slurmd -f "$d/slurm.conf"
  # Up once the node is idle.
  for _ in $(seq 100); do
    sinfo -h -o %t 2>/dev/null | grep -qx idle && return 0
    sleep 0.2
  done
  echo "slurm did not come up; its logs:" >&2
  tail -n 20 "$d"/*.log >&2
  return 1
}
