import { isSameProcessAlive, type ProcStat, readAllStats, readChildren, readProcStat } from './proc.ts'

/**
 * Bookkeeping for one target's process tree. The target is spawned detached, so its root leads a new session and
 * process group (sid = pgid = root PID). Descendants that leave the group (setsid, setpgid) are still caught because
 * every PID seen while polling is remembered with its start time, and a final scan follows parent links from them.
 */
export interface ProcessTree {
  readonly rootPid: number
  /** Records descendants that exist now. Cheap: follows /proc children links from known processes. */
  poll(): void
  /** Every PID seen in the tree so far, root first. */
  pids(): number[]
  /** Live (non-zombie) processes that belong to the tree, from a full /proc scan. */
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

/** Starts tracking the tree under `rootPid` (which must have been spawned detached). */
export function trackProcessTree(rootPid: number): ProcessTree {
  const rootStat = readProcStat(rootPid)
  const known = new Map<number, number>()
  if (rootStat) known.set(rootPid, rootStat.startTicks)

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

  const survivors = (): ProcStat[] => {
    const all = readAllStats()
    const byPid = new Map(all.map((s) => [s.pid, s]))
    return all.filter((s) => s.state !== 'Z' && s.pid !== process.pid && belongs(s, byPid))
  }

  const poll = () => {
    const queue = [...known.keys()].filter((pid) => isSameProcessAlive(pid, known.get(pid)!))
    for (let i = 0; i < queue.length; i++) {
      const children = readChildren(queue[i]!)
      if (children === null) {
        for (const s of survivors()) remember(s.pid)
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
