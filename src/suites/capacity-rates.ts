/**
 * A GPU stage's steady per-sequence cost measured inside one run, from its own progress lines (StageProgress): the
 * least-squares slope of receive time on items done, after the warm-up lines, per worker; the stage's steady time is
 * the slowest worker's slope times its items (the stage ends with it). Thousands of batches give a slope that start-up
 * noise (process start, model build, a slow first batch) does not enter, where a slope across run sizes carries all of
 * it. What the slope does not explain (model build, warm-up excess, work before the first batch, the tail) is the
 * stage's `pre` part, fitted across sizes like any start-up part (it may grow with the input too: VirNucPro's ESM-2
 * stage works through its whole input before its first batch).
 */
import { fitLine } from '../measure/index.ts'
import type { StageProgress } from '../results/schema/index.ts'

/** Steady lines a worker needs after its warm-up for a slope. */
export const RATE_MIN_STEADY_LINES = 3

/** Lines dropped as warm-up: 10%, at least 1 (allocator growth, kernel selection, the first batch's copy). */
export const warmupLines = (lines: number) => Math.max(1, Math.floor(lines * 0.1))

export interface StageRate {
  /** Steady stage time per input sequence (of the run's size unit), ms. */
  msPerSequence: number
  /** The slowest worker's items at its steady rate, ms. */
  steadyMs: number
  /** Steady lines used, all workers. */
  lines: number
  /** The worker that bounds the stage; null for a stage run in the main process. */
  slowestWorker: number | null
}

/** One series' steady time for all its items, or null when it has too few lines or no positive slope. */
export function steadyTimeMs(p: StageProgress): { steadyMs: number; lines: number } | null {
  const drop = warmupLines(p.atMs.length)
  const lines = p.atMs.length - drop
  if (lines < RATE_MIN_STEADY_LINES || !(p.total > 0)) return null
  const fit = fitLine(p.done.slice(drop), p.atMs.slice(drop))
  if (!(Number.isFinite(fit.msPerSequence) && fit.msPerSequence > 0)) return null
  return { steadyMs: fit.msPerSequence * p.total, lines }
}

/**
 * The stage's steady rate in this run, or null when the run has no usable lines for it (none logged, or a worker with
 * too few). A stage run by workers is read from the workers' lines only.
 * @param size the run's input size (sequence-equivalents)
 */
export function stageRate(
  progress: readonly StageProgress[] | undefined,
  stage: string,
  size: number,
): StageRate | null {
  const series = (progress ?? []).filter((p) => p.stage === stage)
  const workers = series.some((p) => p.worker !== null) ? series.filter((p) => p.worker !== null) : series
  if (workers.length === 0 || !(size > 0)) return null
  const fits = workers.map(steadyTimeMs)
  if (fits.some((f) => f === null)) return null
  const steady = fits as { steadyMs: number; lines: number }[]
  const slowest = steady.reduce((best, f, i) => (f.steadyMs > steady[best]!.steadyMs ? i : best), 0)
  const steadyMs = steady[slowest]!.steadyMs
  return {
    msPerSequence: steadyMs / size,
    steadyMs,
    lines: steady.reduce((a, f) => a + f.lines, 0),
    slowestWorker: workers[slowest]!.worker,
  }
}
