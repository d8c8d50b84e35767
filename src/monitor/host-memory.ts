/**
 * Host memory of the target's process tree, sampled from the monitor's main thread: every `intervalMs`, each live
 * process's VmRSS, and its PSS where that read is due (proc-memory.ts says why both and what each costs). Rounds never
 * overlap (the next is scheduled when one ends), and the /proc reads run in the libuv thread pool, so the NVML
 * sampling worker's tick is untouched by any of it: its only new work is logging one record a round.
 *
 * The PSS budget: a smaps_rollup read walks the process's page tables, ~0.5 s for a 30 GB ESM-2 worker, and would take
 * half a core at 1 Hz from the run it measures. So a process's next PSS read waits until its last one is at most
 * PSS_CPU_SHARE of the time since (a 20 ms read: again after 2 s; a 500 ms read: after 50 s). Between two, the summary
 * counts its last PSS plus its VmRSS's growth (summary/host-memory.ts): right while the pages it adds are its own.
 * What changes sharing is a process starting (a fork shares its parent's pages) or ending (its share goes back to the
 * others), so a round that finds the tree's membership changed reads every process's PSS at once, budget or not.
 */
import os from 'node:os'
import { readProcStat } from '../pipeline/proc.ts'
import { readPssBytes, readRssBytes } from './proc-memory.ts'
import type { HostMemoryProcess, HostMemoryRecord } from './records.ts'

/** The largest share of the time since a process's last PSS read that the read may have taken. */
export const PSS_CPU_SHARE = 0.01

export interface HostMemoryTree {
  rootPid: number
  pids(): number[]
}

export interface HostMemorySamplerOptions {
  tree: HostMemoryTree
  intervalMs: number
  /** ms on the monitor's clock. */
  clock: () => number
  /** Gets each round's record (the monitor posts it to its worker, which logs it with its next tick). */
  emit: (record: HostMemoryRecord) => void
}

/** The PIDs that are alive (VmRSS readable: not gone, not a zombie) with their VmRSS, ascending. */
async function liveOf(pids: readonly number[]): Promise<{ pid: number; rssBytes: number }[]> {
  const read = await Promise.all(pids.map(async (pid) => ({ pid, rssBytes: await readRssBytes(pid) })))
  return read.filter((p): p is { pid: number; rssBytes: number } => p.rssBytes !== null).sort((a, b) => a.pid - b.pid)
}

export class HostMemorySampler {
  readonly #options: HostMemorySamplerOptions
  /** Per PID, the clock time from which its PSS may be read again. */
  readonly #pssDueAtMs = new Map<number, number>()
  /** The live PIDs of the last round, sorted: a change of membership is a change of sharing. */
  #members = ''
  #timer: NodeJS.Timeout | null = null
  #inFlight: Promise<void> | null = null
  #stopping: Promise<void> | null = null

  constructor(options: HostMemorySamplerOptions) {
    this.#options = options
  }

  /** Reads now, then every interval until stop(). */
  start(): void {
    this.#next(0)
  }

  #next(delayMs: number): void {
    if (this.#stopping) return
    this.#timer = setTimeout(() => {
      this.#inFlight = this.#round().then(() => this.#next(this.#options.intervalMs))
    }, delayMs).unref()
  }

  async #round(): Promise<void> {
    const tMs = this.#options.clock()
    const live = await liveOf([...new Set(this.#options.tree.pids())])
    const members = live.map(({ pid }) => pid).join(',')
    if (members !== this.#members) this.#pssDueAtMs.clear()
    this.#members = members
    const processes = await Promise.all(live.map((p) => this.#readProcess(p.pid, p.rssBytes)))
    const { rootPid } = this.#options.tree
    this.#options.emit({ kind: 'host-memory', tMs, rootPid, hostMemTotalBytes: os.totalmem(), processes })
  }

  async #readProcess(pid: number, rssBytes: number): Promise<HostMemoryProcess> {
    const stat = readProcStat(pid)
    const now = this.#options.clock()
    let pssBytes: number | null = null
    if (now >= (this.#pssDueAtMs.get(pid) ?? 0)) {
      const pss = await readPssBytes(pid)
      pssBytes = pss.pssBytes
      this.#pssDueAtMs.set(pid, this.#options.clock() + pss.readMs / PSS_CPU_SHARE)
    }
    return { pid, ppid: stat?.ppid ?? null, comm: stat?.comm ?? null, rssBytes, pssBytes }
  }

  /** Ends the schedule after one last round (the round in flight, if any, finishes first). Twice: the same promise. */
  stop(): Promise<void> {
    this.#stopping ??= this.#stop()
    return this.#stopping
  }

  async #stop(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer)
    await this.#inFlight
    await this.#round()
  }
}
