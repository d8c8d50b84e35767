#!/usr/bin/env bash
# Stops the cluster .ci/slurm-up.sh started: first the jobs still in its queue (scancel, so no task outlives its
# slurmd), then slurmd, slurmctld and munged, each by its pid file in the state directory, and only when that pid
# still belongs to a process of that name (a reused pid is never signalled). Never a broad kill by name.
#   bash .ci/slurm-down.sh [--purge]    # --purge also removes the state directory (config, logs, spool)
# Environment: VIRNUCPRO_BENCH_SLURM_DIR (default /tmp/virnucpro-slurm), as for slurm-up.sh.
set -uo pipefail

dir=${VIRNUCPRO_BENCH_SLURM_DIR:-/tmp/virnucpro-slurm}
conf=$dir/slurm.conf
stop_timeout_s=${VIRNUCPRO_BENCH_SLURM_STOP_TIMEOUT_S:-20}
status=0

alive_pid() { # alive_pid PIDFILE NAME: prints the pid when the file names a live process called NAME
  local pid
  pid=$(cat "$1" 2>/dev/null) || return 1
  [[ $pid =~ ^[0-9]+$ ]] && [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$2" ] && echo "$pid"
}

stop() { # stop PIDFILE NAME: TERM, wait, then KILL; removes the pid file once the process is gone
  local pid waited=0
  if ! pid=$(alive_pid "$1" "$2"); then rm -f "$1"; return 0; fi
  kill -TERM "$pid" 2>/dev/null
  while kill -0 "$pid" 2>/dev/null && [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$2" ]; do
    if [ $waited -ge $((stop_timeout_s * 10)) ]; then
      echo "slurm-down: $2 (pid $pid) ignored TERM for ${stop_timeout_s} s: KILL" >&2
      kill -KILL "$pid" 2>/dev/null
      status=1
      break
    fi
    sleep 0.1
    waited=$((waited + 1))
  done
  rm -f "$1"
  echo "slurm-down: stopped $2 (pid $pid)"
}

# Jobs first, while slurmctld still answers: a job step outlives a stopped slurmd otherwise.
if [ -s "$conf" ] && alive_pid "$dir/slurmctld.pid" slurmctld >/dev/null; then
  export SLURM_CONF=$conf
  jobs=$(squeue -h -o %A 2>/dev/null | sort -u | tr '\n' ' ')
  if [ -n "${jobs// /}" ]; then
    echo "slurm-down: cancelling jobs $jobs"
    # shellcheck disable=SC2086 # job ids, one word each
    scancel $jobs 2>/dev/null
    for _ in $(seq 1 $((stop_timeout_s * 2))); do
      [ -z "$(squeue -h -t running,completing,pending -o %A 2>/dev/null)" ] && break
      sleep 0.5
    done
  fi
fi

stop "$dir/slurmd.pid" slurmd
stop "$dir/slurmctld.pid" slurmctld
stop "$dir/munge/munged.pid" munged
if [ "${1:-}" = --purge ]; then rm -rf "$dir" && echo "slurm-down: removed $dir"; fi
exit $status
