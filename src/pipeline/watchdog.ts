import { spawn } from 'node:child_process'

/**
 * A tiny out-of-process guard for one run. Node cannot set PR_SET_PDEATHSIG on its children, and a SIGKILL of the
 * test process cannot be trapped, so each run gets a detached `sh` that blocks reading a pipe from us. If we die in
 * any way the kernel closes the pipe, `read` sees EOF, and the guard kills the run's process group (SIGTERM, then
 * SIGKILL after the grace period). When the run ends normally we write `done` and it exits without signalling.
 * PIDs that escaped the group (setsid) are sent to it as they are discovered, so it can kill them too, and processes
 * whose environment carries the run's marker (process-tree.ts runMarker) are found by grep in /proc/<pid>/environ when
 * it fires: a daemon that detached before any poll saw it.
 */
export interface Watchdog {
  /** Adds a PID outside the run's group for the guard to kill as well. */
  addPid(pid: number): void
  /** The run ended and was cleaned up: the guard exits without killing anything. */
  release(): void
}

const SCRIPT = `pg=$1; grace=$2; marker=$3; extra=""
while IFS= read -r line; do
  [ "$line" = done ] && exit 0
  extra="$extra $line"
done
marked() { [ -n "$marker" ] && grep -l -a -F -e "$marker=" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3; }
kill -TERM -$pg $extra $(marked) 2>/dev/null
sleep $grace
kill -KILL -$pg $extra $(marked) 2>/dev/null
exit 0`

/**
 * Starts the guard for the group `pgid` and the processes marked with `marker`. The guard never keeps the Node event
 * loop alive.
 */
export function startWatchdog(pgid: number, graceMs: number, marker = ''): Watchdog {
  const graceS = Math.max(0.1, graceMs / 1000).toFixed(1)
  const child = spawn('/bin/sh', ['-c', SCRIPT, 'virnucpro-bench-watchdog', String(pgid), graceS, marker], {
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
  })
  child.on('error', () => {}) // no sh: the in-process handlers still cover every case but SIGKILL of this process
  child.stdin?.on('error', () => {})
  child.unref()
  ;(child.stdin as unknown as { unref?: () => void } | null)?.unref?.()
  const sent = new Set<number>()
  let released = false
  return {
    addPid(pid) {
      if (released || sent.has(pid)) return
      sent.add(pid)
      child.stdin?.write(`${pid}\n`)
    },
    release() {
      if (released) return
      released = true
      child.stdin?.end('done\n')
    },
  }
}
