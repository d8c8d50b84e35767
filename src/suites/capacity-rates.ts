/**
 * A GPU stage's steady part inside one run, from its own progress lines (StageProgress): the time from its first batch
 * line to its last, scaled to all its items (per worker; the stage ends with its slowest worker). Why the span and not
 * a least-squares slope through the lines: batches run length-sorted, so the cost per item (and per token) is not
 * constant along a stage (the reference pipeline's DNABERT-S: the last fifth of its batches ~3x the others' per token),
 * and a slope through a convex curve depends on how many lines a run has: on an H100 it read 0.61-0.83 ms/sequence at
 * 1,000 records and 0.44 at 20,000. The span averages the whole length profile, which nested subsets share, and it
 * holds no start-up (process start, model build, work before the first batch): across sizes it is a line whose slope
 * start-up noise does not enter. What the span does not hold is the stage's `pre` part (start-up and drain), fitted
 * across sizes like any start-up part (it may grow with the input: VirNucPro's ESM-2 stage works through its whole
 * input before its first batch).
 */
import type { StageProgress } from '../results/schema/index.ts'

/** Lines a worker needs for a span (its first and last, and one between). */
export const SPAN_MIN_LINES = 3

export interface StageSteady {
  /** The slowest worker's span scaled to all its items, ms. */
  steadyMs: number
  /** Lines read, all workers. */
  lines: number
  /** The worker that bounds the stage; null for a stage run in the main process. */
  slowestWorker: number | null
}

/** One series' span scaled to all its items, or null when it has too few lines or no items between its ends. */
export function spanMs(p: StageProgress): number | null {
  const n = p.atMs.length
  if (n < SPAN_MIN_LINES || !(p.total > 0)) return null
  const items = p.done[n - 1]! - p.done[0]!
  const ms = p.atMs[n - 1]! - p.atMs[0]!
  if (!(items > 0 && ms > 0)) return null
  return (ms * p.total) / items
}

/**
 * The stage's steady part in this run, or null when the run has no usable lines for it (none logged, or a worker
 * with too few). A stage run by workers is read from the workers' lines only.
 */
export function stageSteady(progress: readonly StageProgress[] | undefined, stage: string): StageSteady | null {
  const series = (progress ?? []).filter((p) => p.stage === stage)
  const workers = series.some((p) => p.worker !== null) ? series.filter((p) => p.worker !== null) : series
  if (workers.length === 0) return null
  const spans = workers.map(spanMs)
  if (spans.some((s) => s === null)) return null
  const ms = spans as number[]
  const slowest = ms.reduce((best, s, i) => (s > ms[best]! ? i : best), 0)
  return {
    steadyMs: ms[slowest]!,
    lines: workers.reduce((a, p) => a + p.atMs.length, 0),
    slowestWorker: workers[slowest]!.worker,
  }
}
