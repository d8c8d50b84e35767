/**
 * One run's memory peaks as the capacity model reads them (capacity/memory.ts): the host memory of the target's process
 * tree and of its largest process, and the memory used on each GPU the run used, from the run's monitor summary.
 */
import type { MeasuredRun } from '../results/schema/index.ts'

export interface RunMemory {
  /** The tree's peak, each page counted once (PSS: monitor/summary/host-memory.ts); null: no reading of the tree. */
  hostTreeBytes: number | null
  /** The largest single process's peak VmRSS; null: no reading of the tree. */
  hostProcessBytes: number | null
  /** os.totalmem() where the run ran; null: no host-memory readings. */
  hostMemTotalBytes: number | null
  /**
   * Per GPU the run used (the monitor's attribution; else the GPUs it asked for), its peak memory used, whoever used
   * it: what decides an out-of-memory error there.
   */
  gpus: { gpu: number; peakMemUsedBytes: number; memTotalBytes: number | null }[]
}

/** The run's memory peaks; null without a monitor summary. */
export function runMemory(o: MeasuredRun): RunMemory | null {
  const summary = o.gpu
  if (!summary) return null
  const host = summary.hostMemory ?? null
  // VirNucPro's v2 workers may run on other GPUs than asked for (UPSTREAM.md): where the work ran is what counts.
  const used = o.run.gpusUsed?.length ? o.run.gpusUsed : null
  // A summary built by hand with stage windows only (the rates' tests) holds no per-GPU figures: no GPU peaks then.
  const gpus = (summary.gpus ?? [])
    .filter((g) => (used ? used.includes(g.gpu) : g.requested) && g.peakMemUsedBytes !== null)
    .map((g) => ({ gpu: g.gpu, peakMemUsedBytes: g.peakMemUsedBytes!, memTotalBytes: g.device?.memTotalBytes ?? null }))
  return {
    // Readings that never found a live process of the tree say nothing about its memory.
    hostTreeBytes: host?.peakProcess ? host.peakTreeBytes : null,
    hostProcessBytes: host?.peakProcess ? host.peakProcessBytes : null,
    hostMemTotalBytes: host?.hostMemTotalBytes ?? null,
    gpus,
  }
}
