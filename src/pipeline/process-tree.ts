import { randomBytes } from 'node:crypto'
import { environHas, isSameProcessAlive, type ProcStat, readAllStats, readChildren, readProcStat } from './proc.ts'

/**
 * Bookkeeping for one target's process tree. The target is spawned detached, so its root leads a new session and
 * process group (sid = pgid = root PID). Descendants that leave the group (setsid, setpgid) are still caught because
 * every PID seen while polling is remembered with its start time, and a final scan follows parent links from them.
 *
 * A daemon that detaches between two polls (double fork and setsid: its parent exits at once, it is re-parented to
 * init and leads a session of its own) leaves no link to follow. So the target is started with a marker variable in
 * its environment (runMarker()), which every descendant inherits, and the scan at the run's end (survivors()) also
 * reads /proc/<pid>/environ of the processes started since the root, finding the daemon by its marker.
 *
 * Why a marker scan, not a cgroup or a subreaper: a cgroup needs cgroup v2 with a delegated subtree (not given on a
 * CI runner, a Slurm node or this container, which has v1), and PR_SET_CHILD_SUBREAPER needs a native call from Node
 * (the NVML addon would grow a second job) and makes the harness reap every orphan of every run. The scan needs
 * neither, and costs nothing while the run goes: the 100 ms poll never reads an environment, only the end-of-run
 * scan does, and only for processes younger than the root. Its limit: a process that replaces its environment (exec
 * with `env -i`) after leaving the session and group is not found.
 */
export interface ProcessTree {
  readonly rootPid: number
  /** Records descendants that exist now. Cheap: follows /proc children links from known processes. */
  poll(): void
  /** Every PID seen in the tree so far, root first. */
  pids(): number[]
  /**
   * Live (non-zombie) processes that belong to the tree, from a full /proc scan: by links, and by the run's marker
   * in their environment (read only for processes younger than the root, each once). For the run's end, not polling.
   */
  survivors(): ProcStat[]
  /** Sends `signal` to the group and to every survivor outside it; returns the PIDs signalled one by one. */
  signal(signal: NodeJS.Signals): number[]
}

function trySignal(target: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(target, signal)
    return true
  } catch {
    return false // ESRCH: already gone; EPERM cannot happen for our own children
  }
}

/**
 * A variable name unique to one run (`VNPBENCH_RUN_<hex>`), set to `1` in the target's environment. The run's id is in
 * the name, not the value: a run started inside another run's target carries both, so each finds it. Not
 * `VIRNUCPRO_BENCH_*` nor `VIRNUCPRO_*`: a harness nested in a target would refuse the first as an unknown setting
 * (config/check.ts), and a Slurm campaign passes the second on to its tasks.
 */
export function runMarker(): string {
  return `VNPBENCH_RUN_${randomBytes(8).toString('hex')}`
}

/**
 * Starts tracking the tree under `rootPid` (which must have been spawned detached); `marker`: the variable its
 * environment was given (runMarker), if any.
 */
export function trackProcessTree(rootPid: number, marker?: string): ProcessTree {
  const rootStat = readProcStat(rootPid)
  const known = new Map<number, number>()
  if (rootStat) known.set(rootPid, rootStat.startTicks)
  // Processes whose environment was read and had no marker, by PID and start time: each is read once.
  const unmarked = new Map<number, number>()

  const remember = (pid: number) => {
    if (known.has(pid)) return
    // Zombies count: they ran in the tree (a worker that finished before its parent waited for it).
    const stat = readProcStat(pid)
    if (stat) known.set(pid, stat.startTicks)
  }

  const belongs = (stat: ProcStat, byPid: Map<number, ProcStat>): boolean => {
    for (let cur: ProcStat | undefined = stat, hops = 0; cur && hops < 64; cur = byPid.get(cur.ppid), hops++) {
      if (cur.sid === rootPid || cur.pgid === rootPid) return true
      if (known.get(cur.pid) === cur.startTicks) return true
      if (cur.ppid <= 1) return false
    }
    return false
  }

  /** A process younger than the root whose environment carries the marker: the run's, however it detached. */
  const marked = (stat: ProcStat): boolean => {
    if (!marker || !rootStat || stat.startTicks < rootStat.startTicks) return false
    if (unmarked.get(stat.pid) === stat.startTicks) return false
    if (environHas(stat.pid, marker)) {
      known.set(stat.pid, stat.startTicks)
      return true
    }
    unmarked.set(stat.pid, stat.startTicks)
    return false
  }

  const linked = (): ProcStat[] => {
    const all = readAllStats()
    const byPid = new Map(all.map((s) => [s.pid, s]))
    return all.filter((s) => s.state !== 'Z' && s.pid !== process.pid && belongs(s, byPid))
  }

  const survivors = (): ProcStat[] => {
    const all = readAllStats()
    const byPid = new Map(all.map((s) => [s.pid, s]))
    return all.filter((s) => s.state !== 'Z' && s.pid !== process.pid && (belongs(s, byPid) || marked(s)))
  }

  const poll = () => {
    const queue = [...known.keys()].filter((pid) => isSameProcessAlive(pid, known.get(pid)!))
    for (let i = 0; i < queue.length; i++) {
      const children = readChildren(queue[i]!)
      if (children === null) {
        // A kernel without /proc/<pid>/task/<tid>/children: a full scan by links (no environment read while polling).
        for (const s of linked()) remember(s.pid)
        return
      }
      for (const child of children)
        if (!known.has(child)) {
          remember(child)
          queue.push(child)
        }
    }
  }

  const signal = (sig: NodeJS.Signals): number[] => {
    trySignal(-rootPid, sig)
    const outside = survivors().filter((s) => s.pgid !== rootPid)
    return outside.filter((s) => trySignal(s.pid, sig)).map((s) => s.pid)
  }

  return { rootPid, poll, pids: () => [...known.keys()], survivors, signal }
}
