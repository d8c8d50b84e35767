#!/usr/bin/env bash
# Starts a single-node Slurm cluster on this machine for the cluster tests (test/cluster): munged, slurmctld and slurmd,
# all state in one directory, nothing written under /etc. Needs root (slurmd launches jobs as their users) and Debian's
# slurm-wlm and munge packages. Idempotent: a cluster already up in the same directory is left as it is.
#
#   bash .ci/slurm-up.sh            # then: export SLURM_CONF=/tmp/virnucpro-slurm/slurm.conf (printed as the last line)
#   bash .ci/slurm-down.sh          # ends exactly the daemons started here, by their pid files
#
# Environment: VIRNUCPRO_BENCH_SLURM_DIR (state directory, default /tmp/virnucpro-slurm), VIRNUCPRO_BENCH_SLURM_PORT
# (slurmctld's port, default 16817; slurmd takes the next one): ports of their own, so a cluster of the machine's own,
# if any, is never spoken to. The node is this host (`hostname -s`) with its CPU count (`nproc`): slurmd refuses to
# register under a name that is not its host's, and a node that claims more CPUs than it has is drained.
set -euo pipefail

dir=${VIRNUCPRO_BENCH_SLURM_DIR:-/tmp/virnucpro-slurm}
port=${VIRNUCPRO_BENCH_SLURM_PORT:-16817}
start_timeout_s=${VIRNUCPRO_BENCH_SLURM_START_TIMEOUT_S:-60}

fail() { echo "slurm-up: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || fail "must run as root (slurmd starts jobs as their users); try: sudo bash $0"
for tool in munged slurmctld slurmd sinfo sbatch; do
  command -v "$tool" >/dev/null || fail "$tool not found: install Debian's slurm-wlm and munge (apt-get install slurm-wlm munge)"
done
id munge >/dev/null 2>&1 || fail "no 'munge' user: the munge package creates it (apt-get install munge)"

alive() { # alive PIDFILE NAME: the pid file names a live process called NAME (not a reused pid)
  [ -s "$1" ] && [ "$(cat "/proc/$(cat "$1")/comm" 2>/dev/null)" = "$2" ]
}

conf=$dir/slurm.conf
export SLURM_CONF=$conf
if alive "$dir/slurmctld.pid" slurmctld && alive "$dir/slurmd.pid" slurmd && alive "$dir/munge/munged.pid" munged; then
  echo "slurm-up: already running in $dir"
  echo "export SLURM_CONF=$conf"
  exit 0
fi
# A half-started cluster from an earlier try: end what it left, by its own pid files, and start clean.
bash "$(dirname "${BASH_SOURCE[0]}")/slurm-down.sh" >/dev/null 2>&1 || true

start=$SECONDS
host=$(hostname -s)
cpus=$(nproc)
mkdir -p "$dir"/{state,spool,log,munge}
chmod 0755 "$dir" "$dir"/{state,spool,log}

# munged: its own key and socket here; it insists on running as a user that owns them (and not world-writable dirs).
chown munge:munge "$dir/munge"
chmod 0755 "$dir/munge"
if [ ! -s "$dir/munge/munge.key" ]; then
  head -c 1024 /dev/urandom >"$dir/munge/munge.key"
  chown munge:munge "$dir/munge/munge.key"
  chmod 0400 "$dir/munge/munge.key"
fi
runuser -u munge -- munged --socket="$dir/munge/munge.socket" --key-file="$dir/munge/munge.key" \
  --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" --seed-file="$dir/munge/munged.seed" ||
  fail "munged did not start; its log: $dir/munge/munged.log"

# The smallest configuration that runs jobs here: no cgroups (proctrack/linuxproc, task/none: containers and CI VMs
# often cannot delegate them), no accounting database, CPUs as the consumable so that array tasks share the node.
cat >"$conf" <<EOF
# Written by .ci/slurm-up.sh for the virnucpro-bench cluster tests; removed by slurm-down.sh --purge.
ClusterName=virnucpro-ci
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmdParameters=config_overrides
ReturnToService=2
MinJobAge=600
SlurmctldTimeout=30
SlurmdTimeout=30
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF

slurmctld -c -f "$conf" || fail "slurmctld did not start; its log: $dir/log/slurmctld.log"
slurmd -f "$conf" || fail "slurmd did not start; its log: $dir/log/slurmd.log"

# Up means: the node answers and takes jobs (idle), within the time limit.
until [ "$(sinfo -h -n "$host" -o %t 2>/dev/null)" = idle ]; do
  if [ $((SECONDS - start)) -ge "$start_timeout_s" ]; then
    echo "slurm-up: node $host not idle after ${start_timeout_s} s (sinfo: $(sinfo -h -N -o '%N %t %E' 2>&1 | head -1))" >&2
    tail -n 5 "$dir/log/slurmctld.log" "$dir/log/slurmd.log" >&2 || true
    exit 1
  fi
  sleep 0.5
done
echo "slurm-up: cluster virnucpro-ci up in $((SECONDS - start)) s: node $host, $cpus CPUs, partition debug, state in $dir"
echo "export SLURM_CONF=$conf"
