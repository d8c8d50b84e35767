/**
 * How much work each GPU worker of a stage got in one run: the fewest items any worker's progress lines name (its
 * `total`), per stage. What the batching precondition reads (capacity/decisions.ts): a pipeline that packs a batch
 * only past a buffer (VirNucPro's v2 ESM-2 workers: 2,000 sequences) runs another code path below it, so a run whose
 * workers never reach it cannot project the path production takes.
 */
import type { MeasuredRun } from '../results/schema/index.ts'

/** Per stage with worker progress, the smallest worker's items; stages logged by the main process only are absent. */
export function workerItemsOf(o: MeasuredRun): Record<string, number> {
  const out: Record<string, number> = {}
  for (const p of o.progress ?? []) {
    if (p.worker === null || !(p.total > 0)) continue
    out[p.stage] = Math.min(out[p.stage] ?? Number.POSITIVE_INFINITY, p.total)
  }
  return out
}

/** The fewest items a worker of each stage got in any of `runs` (their workerItemsOf figures). */
export function fewestWorkerItems(runs: readonly { workerItems?: Record<string, number> }[]): Record<string, number> {
  const out: Record<string, number> = {}
  for (const r of runs)
    for (const [stage, items] of Object.entries(r.workerItems ?? {}))
      out[stage] = Math.min(out[stage] ?? Number.POSITIVE_INFINITY, items)
  return out
}
