/**
 * A run's host-memory peaks from its host-memory records: the tree's total (each page counted once: PSS), the largest
 * single process (VmRSS: what it holds alone), and the same per role (a process's name and its place in the tree:
 * VirNucPro's v2 ESM-2 workers are `python (child)`, their DataLoader workers `python (grandchild)`).
 */
import type { HostMemoryProcess, HostMemoryRecord } from '../records.ts'

export interface HostMemoryRole {
  /** `<comm> (<root|child|grandchild|depth N|detached>)`. */
  role: string
  /** Distinct PIDs seen in this role. */
  processes: number
  /** Largest VmRSS of one process of the role. */
  peakProcessBytes: number
  /** Largest total of the role in one reading, counted as the tree's total is. */
  peakTotalBytes: number
}

export interface HostMemorySummary {
  /** os.totalmem() at the last reading. */
  hostMemTotalBytes: number
  readings: number
  /**
   * The tree's largest total in one reading: each process's PSS where it was read in that reading, else its last PSS
   * plus what its VmRSS grew by since (PSS is read rarely: monitor/host-memory.ts; pages a process adds are its own),
   * else its VmRSS.
   */
  peakTreeBytes: number
  peakTreeAtMs: number
  peakTreeStage: string | null
  /** False when some process of the peak reading had no PSS read yet: its shared pages may be counted more than once. */
  peakTreeFromPss: boolean
  /** The largest VmRSS of one process, and which. */
  peakProcessBytes: number
  /** null when no reading found a live process. */
  peakProcess: { pid: number; comm: string | null; role: string } | null
  roles: HostMemoryRole[]
}

const RELATIONS = ['root', 'child', 'grandchild']

/** Each process's role in one reading, from the parent links among the reading's own processes. */
function rolesOf(record: HostMemoryRecord): Map<number, string> {
  const parentOf = new Map(record.processes.map((p) => [p.pid, p.ppid]))
  const roles = new Map<number, string>()
  for (const p of record.processes) {
    let depth: number | null = null
    let pid: number | null | undefined = p.pid
    for (let hops = 0; pid !== null && pid !== undefined && hops < 64; hops++) {
      if (pid === record.rootPid) {
        depth = hops
        break
      }
      pid = parentOf.get(pid)
    }
    const relation = depth === null ? 'detached' : (RELATIONS[depth] ?? `depth ${depth}`)
    roles.set(p.pid, `${p.comm ?? '?'} (${relation})`)
  }
  return roles
}

/**
 * What a process adds to the tree's total: its PSS, read now or at its last read plus its VmRSS's growth since
 * (between 0 and its VmRSS); its VmRSS before its first PSS read. Why growth and not the last PSS/RSS ratio: what a
 * process allocates is private to it (VirNucPro's v2 workers gathering embeddings), and a ratio read while it still
 * shared most of its pages would count only that share of the growth.
 */
function countedBytes(p: HostMemoryProcess, last: { pssBytes: number; rssBytes: number } | undefined): number {
  if (p.pssBytes !== null) return p.pssBytes
  if (!last) return p.rssBytes
  return Math.min(p.rssBytes, Math.max(0, last.pssBytes + p.rssBytes - last.rssBytes))
}

/** Host-memory peaks of `records` (in time order); null when there are none (a log from before they were sampled). */
export function summarizeHostMemory(
  records: readonly HostMemoryRecord[],
  stageAt: (tMs: number) => string | null,
): HostMemorySummary | null {
  const last = records.at(-1)
  if (!last) return null
  /** Per PID, its last PSS read and its VmRSS at that read. */
  const lastPss = new Map<number, { pssBytes: number; rssBytes: number }>()
  const roleStats = new Map<string, { pids: Set<number>; peakProcessBytes: number; peakTotalBytes: number }>()
  let tree = { bytes: -1, tMs: 0, fromPss: true }
  let top: { bytes: number; process: HostMemoryProcess | null; role: string } = { bytes: -1, process: null, role: '' }
  for (const record of records) {
    const roles = rolesOf(record)
    const totals = new Map<string, number>()
    let total = 0
    let fromPss = true
    for (const p of record.processes) {
      if (p.pssBytes !== null) lastPss.set(p.pid, { pssBytes: p.pssBytes, rssBytes: p.rssBytes })
      const counted = countedBytes(p, lastPss.get(p.pid))
      if (!lastPss.has(p.pid)) fromPss = false
      total += counted
      const role = roles.get(p.pid)!
      totals.set(role, (totals.get(role) ?? 0) + counted)
      const stats = roleStats.get(role) ?? { pids: new Set(), peakProcessBytes: 0, peakTotalBytes: 0 }
      stats.pids.add(p.pid)
      stats.peakProcessBytes = Math.max(stats.peakProcessBytes, p.rssBytes)
      roleStats.set(role, stats)
      if (p.rssBytes > top.bytes) top = { bytes: p.rssBytes, process: p, role }
    }
    for (const [role, bytes] of totals) {
      const stats = roleStats.get(role)!
      stats.peakTotalBytes = Math.max(stats.peakTotalBytes, bytes)
    }
    if (total > tree.bytes) tree = { bytes: total, tMs: record.tMs, fromPss }
  }
  return {
    hostMemTotalBytes: last.hostMemTotalBytes,
    readings: records.length,
    peakTreeBytes: Math.max(0, tree.bytes),
    peakTreeAtMs: tree.tMs,
    peakTreeStage: stageAt(tree.tMs),
    peakTreeFromPss: tree.fromPss,
    peakProcessBytes: Math.max(0, top.bytes),
    peakProcess: top.process && { pid: top.process.pid, comm: top.process.comm, role: top.role },
    roles: [...roleStats].map(([role, s]) => ({
      role,
      processes: s.pids.size,
      peakProcessBytes: s.peakProcessBytes,
      peakTotalBytes: s.peakTotalBytes,
    })),
  }
}
