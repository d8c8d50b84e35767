/**
 * A stage's steady part inside one run, from its own progress (StageProgress): the time from its first line to its
 * last, scaled to all its items (per worker; the stage ends with its slowest worker). Why the span and not a
 * least-squares slope through the lines: batches run length-sorted, so the cost per item (and per token) is not
 * constant along a stage (the reference pipeline's DNABERT-S: the last fifth of its batches ~3x the others' per token),
 * and a slope through a convex curve depends on how many lines a run has: on an H100 it read 0.61-0.83 ms/sequence at
 * 1,000 records and 0.44 at 20,000. The span averages the whole length profile, which nested subsets share, and it
 * holds no start-up (process start, model build, work before the first batch): across sizes it is a line whose slope
 * start-up noise does not enter. What the span does not hold is the stage's `pre` part (start-up and drain), fitted
 * across sizes like any start-up part (it may grow with the input: VirNucPro's ESM-2 stage works through its whole
 * input before its first batch).
 *
 * Where a stage prints no batch lines (VirNucPro at the sizes a capacity test runs), its span comes from other lines
 * (RATE_SOURCES says which and in what order), or from the GPU's busy samples.
 */

import { isPaired } from '../engine/run-progress.ts'
import type { ProgressSource, StageProgress } from '../results/schema/index.ts'

/**
 * Where a stage's steady part was read, best first:
 * - `batch-lines`: many points, the first after the first batch, so the span holds no start-up at all (neither the
 *   data loader's start nor the model's warm-up), and a run's whole length profile;
 * - `worker-span`: each worker's own loop, from before its first sequence to after its last, on the runner's clock:
 *   exact ends, but the loop's own start (a v2 worker's DataLoader processes start inside it) counts as work;
 * - `file-lines`: each file's work, from its start (after the model it builds, where the line says so) to its save:
 *   exact ends too, but per file in the main process, and a file's own set-up (DNABERT-S loads its model after its
 *   `Extracting` line) counts as work;
 * - `file-count`: a worker's file ends as the main process saw them (VirNucPro's v2 DNABERT-S), from its first
 *   file's end to its last: the first file (the worker's process start, its model build and warm-up) is left out,
 *   each end is a file boundary, so the span holds exactly the items of the files between, but one file a worker
 *   holds no span at all, and the ends are read at the log's flush;
 * - `tqdm`: a bar, from its first draw to its last count: the bar's own start-up (a process pool spawned after the
 *   bar is drawn) counts as work, and its redraws are timed to a write, not to an item;
 * - `nvml-busy`: the GPU's first busy sample to its last: a sampled counter (each end to one interval), with no item
 *   count and no worker of its own, which counts any kernel (a model's conversion to FP16) as the stage's work.
 * Every source's span is fitted across sizes as a line (its intercept takes what it holds of start-up), so a source
 * is better where less start-up noise enters it; one configuration's runs are all read from one source
 * (capacity/steady.ts), so a slope never mixes two of them.
 */
export const RATE_SOURCES = ['batch-lines', 'worker-span', 'file-lines', 'file-count', 'tqdm', 'nvml-busy'] as const
export type RateSource = (typeof RATE_SOURCES)[number]

/** A source in words, for notes and reports. */
export const RATE_SOURCE_NAMES: Readonly<Record<RateSource, string>> = {
  'batch-lines': 'batch lines',
  'worker-span': 'worker spans',
  'file-lines': 'file lines',
  'file-count': 'file counts',
  tqdm: 'tqdm bars',
  'nvml-busy': 'NVML busy spans',
}

/**
 * Lines a worker needs for a span whose first line comes after work began (batch lines: its first and last, and one
 * between, so the span holds two batches at least).
 */
export const SPAN_MIN_LINES = 3
/**
 * Points a span with exact ends needs: a piece that starts before its first item (done 0 at its first point: a
 * worker's `Starting inference`, a file's `Extracting`, a bar's first draw) and ends after its last holds all its
 * items, so its two ends are the whole measurement; nothing is extrapolated, and a third point adds nothing to it.
 */
export const EXACT_SPAN_MIN_POINTS = 2

export interface StageSteady {
  /** The slowest worker's span scaled to all its items, ms. */
  steadyMs: number
  /** Lines read, all workers (none for NVML busy spans). */
  lines: number
  /** The worker (NVML: the GPU) that bounds the stage; null for a stage run in the main process. */
  slowestWorker: number | null
  /** Where it was read. */
  source: RateSource
}

export const sourceOf = (p: Pick<StageProgress, 'source'>): RateSource => p.source ?? 'batch-lines'

/** Paired pieces (a start and an end each): the time inside them and the items they hold; gaps between are no work. */
function piecesMs(p: StageProgress): { ms: number; items: number } {
  let ms = 0
  let items = 0
  for (let i = 0; i + 1 < p.atMs.length; i += 2) {
    ms += p.atMs[i + 1]! - p.atMs[i]!
    items += p.done[i + 1]! - p.done[i]!
  }
  return { ms, items }
}

/** One series' span scaled to all its items, or null when it has too few points or no items between its ends. */
export function spanMs(p: StageProgress): number | null {
  const n = p.atMs.length
  if (!(p.total > 0)) return null
  // Exact ends: a piece that starts before its first item, or a file count, whose every point is a file's end.
  const exact = p.source !== undefined && (p.done[0] === 0 || p.source === 'file-count')
  if (n < (exact ? EXACT_SPAN_MIN_POINTS : SPAN_MIN_LINES)) return null
  const { ms, items } = isPaired(p)
    ? piecesMs(p)
    : { ms: p.atMs[n - 1]! - p.atMs[0]!, items: p.done[n - 1]! - p.done[0]! }
  if (!(items > 0 && ms > 0)) return null
  return (ms * p.total) / items
}

/**
 * The stage's steady part in this run from one source (default: batch lines), or null when the run has no usable
 * points of it (none logged, a worker with too few, two tqdm bars in one stage: which of them holds its items is not
 * known). A stage run by workers is read from the workers' series only.
 */
export function stageSteady(
  progress: readonly StageProgress[] | undefined,
  stage: string,
  source: ProgressSource | 'batch-lines' = 'batch-lines',
): StageSteady | null {
  const series = (progress ?? []).filter((p) => p.stage === stage && sourceOf(p) === source)
  const workers = series.some((p) => p.worker !== null) ? series.filter((p) => p.worker !== null) : series
  if (workers.length === 0 || (source === 'tqdm' && workers.length > 1)) return null
  const spans = workers.map(spanMs)
  if (spans.some((s) => s === null)) return null
  const ms = spans as number[]
  const slowest = ms.reduce((best, s, i) => (s > ms[best]! ? i : best), 0)
  return {
    steadyMs: ms[slowest]!,
    lines: workers.reduce((a, p) => a + p.atMs.length, 0),
    slowestWorker: workers[slowest]!.worker,
    source,
  }
}

/**
 * The stage's steady part from its GPUs' busy spans (the monitor's `busySpanMs` per GPU of the stage's window): the
 * slowest GPU's, or null when a GPU has none (records written before the monitor kept it give undefined).
 */
export function busySteady(gpus: readonly { gpu: number; busySpanMs?: number | null }[]): StageSteady | null {
  if (gpus.length === 0) return null
  const spans = gpus.map((g) => g.busySpanMs)
  if (!spans.every((s): s is number => typeof s === 'number' && s > 0)) return null
  const slowest = spans.reduce((best, s, i) => (s > spans[best]! ? i : best), 0)
  return { steadyMs: spans[slowest]!, lines: 0, slowestWorker: gpus[slowest]!.gpu, source: 'nvml-busy' }
}
