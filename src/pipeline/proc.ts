import { readdirSync, readFileSync } from 'node:fs'

/**
 * Linux /proc readers for process-tree bookkeeping. Synchronous on purpose: they are also called from `exit` and
 * signal handlers, where nothing asynchronous runs. Every reader treats a vanished process as absent, never an error.
 */

export interface ProcStat {
  pid: number
  comm: string
  /** R, S, D, Z (zombie: dead, holds no memory), T, ... */
  state: string
  ppid: number
  pgid: number
  sid: number
  /** Start time in clock ticks since boot: with the PID it identifies a process across PID reuse. */
  startTicks: number
}

/** Reads /proc/<pid>/stat; null when the process is gone or unreadable. */
export function readProcStat(pid: number): ProcStat | null {
  let text: string
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return null
  }
  // comm may hold spaces and parentheses: the fields after it start at the last ')'.
  const close = text.lastIndexOf(')')
  const fields = text.slice(close + 2).split(' ')
  if (close < 0 || fields.length < 20) return null
  return {
    pid,
    comm: text.slice(text.indexOf('(') + 1, close),
    state: fields[0]!,
    ppid: Number(fields[1]),
    pgid: Number(fields[2]),
    sid: Number(fields[3]),
    startTicks: Number(fields[19]),
  }
}

/** All PIDs in /proc. */
export function listPids(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
}

/** Stats of every live process (zombies included; callers decide). */
export function readAllStats(): ProcStat[] {
  const out: ProcStat[] = []
  for (const pid of listPids()) {
    const stat = readProcStat(pid)
    if (stat) out.push(stat)
  }
  return out
}

/**
 * Direct children of `pid` from /proc/<pid>/task/<tid>/children (kernel CONFIG_PROC_CHILDREN); null when the kernel
 * does not provide the file, so callers fall back to a full scan.
 */
export function readChildren(pid: number): number[] | null {
  let tids: string[]
  try {
    tids = readdirSync(`/proc/${pid}/task`)
  } catch {
    return []
  }
  const children: number[] = []
  for (const tid of tids) {
    try {
      const text = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim()
      if (text) children.push(...text.split(' ').map(Number))
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' && tids.length > 0 && tid === tids[0]) return null
    }
  }
  return children
}

/** True while `pid` exists with the same start time and is not a zombie. */
export function isSameProcessAlive(pid: number, startTicks: number): boolean {
  const stat = readProcStat(pid)
  return stat !== null && stat.startTicks === startTicks && stat.state !== 'Z'
}

/**
 * Whether /proc/<pid>/environ holds the variable `name` (any value): how a run's processes are found however they
 * detached (process-tree.ts). False when the process is gone or not ours to read (another user's, a kernel thread).
 */
export function environHas(pid: number, name: string): boolean {
  let environ: Buffer
  try {
    environ = readFileSync(`/proc/${pid}/environ`)
  } catch {
    return false
  }
  const needle = `${name}=`
  for (let at = environ.indexOf(needle); at >= 0; at = environ.indexOf(needle, at + 1))
    if (at === 0 || environ[at - 1] === 0) return true
  return false
}
