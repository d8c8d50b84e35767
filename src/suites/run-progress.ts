/**
 * Collects each GPU stage's progress lines during one run (ESM-2's `Batch` lines and any `<label> progress: done/total`
 * line, per worker) into the compact series a record keeps (StageProgress), thinned to PROGRESS_MAX_POINTS.
 */
import { PROGRESS_MAX_POINTS, type StageProgress } from '../results/schema/index.ts'
import type { TargetEvent } from '../target/events.ts'

export interface ProgressCollector {
  /** Feeds one event seen while `stage` was running (null: between stages). */
  push(event: TargetEvent, stage: string | null): void
  /** The series collected, one per stage and worker, in the order they started. */
  series(): StageProgress[]
}

/** Evenly spaced indices of `count` points, at most `max` of them, the first and the last always among them. */
export function thinnedIndices(count: number, max: number): number[] {
  if (count <= max) return Array.from({ length: count }, (_, i) => i)
  const out: number[] = []
  for (let k = 0; k < max; k++) out.push(Math.round((k * (count - 1)) / (max - 1)))
  return out
}

function thin(p: StageProgress, max: number): StageProgress {
  if (p.atMs.length <= max) return p
  const keep = thinnedIndices(p.atMs.length, max)
  return { ...p, atMs: keep.map((i) => p.atMs[i]!), done: keep.map((i) => p.done[i]!) }
}

/** A collector; `maxPoints` per series (default PROGRESS_MAX_POINTS). */
export function createProgressCollector(maxPoints = PROGRESS_MAX_POINTS): ProgressCollector {
  const byKey = new Map<string, StageProgress>()
  return {
    push(event, stage) {
      if (stage === null || (event.type !== 'batch' && event.type !== 'progress')) return
      if (!(Number.isFinite(event.done) && Number.isFinite(event.total))) return
      const key = `${stage}\u0000${event.worker ?? ''}`
      let p = byKey.get(key)
      if (!p) {
        p = { stage, worker: event.worker, total: event.total, lines: 0, atMs: [], done: [] }
        byKey.set(key, p)
      }
      p.lines++
      p.total = Math.max(p.total, event.total)
      p.atMs.push(event.atMs)
      p.done.push(event.done)
    },
    series: () => [...byKey.values()].map((p) => thin(p, maxPoints)),
  }
}
