/**
 * Projection of a whole run's wall time from its parts: time(M) = sum over parts of (fixedMs + msPerSequence x M).
 * One run on N sequences gives each part's time at N only, so each part says how it splits into fixed and
 * proportional, from what the run shows about it:
 * - `fixed`: all of it is fixed (interpreter start-up, a model built once);
 * - `proportional`: all of it grows with the input (CPU passes over the data);
 * - `progress`: batch progress events inside the part give the steady slope (fitProjection: OLS after the warm-up
 *   events); the rest of the part (model build, warm-up excess, tail) is fixed: fixedMs = durationMs - slope x N;
 * - `onset`: the part is fixed until its work starts (e.g. the GPU gets busy, seen on a monitor series with
 *   `resolutionMs` between samples) and proportional after it;
 * - `workers`: a stage sharded over k workers (k GPUs), each with its own progress events: the slowest worker bounds
 *   the stage, so its slope times its share is the stage's (a k-GPU run projected with the summed rate would assume
 *   perfect balance).
 * CI: percentile bootstrap. Each replicate takes one batch-bootstrap replicate of every `progress` part's slope
 * (fitProjection's, so the series keeps its cumulative shape) and an onset drawn uniformly inside its sampling
 * interval (the true onset lies between the last idle sample and the first busy one). It covers within-run
 * batch-to-batch variation and the monitor's time resolution; it does not cover run-to-run variation of the fixed
 * parts (start-up, stalls), nor a target input whose work per sequence differs from the measured run's.
 */
import { percentileInterval } from './bootstrap.ts'
import { MeasureInputError } from './errors.ts'
import {
  type Fit,
  fitProjection,
  PROJECTION_RESAMPLES,
  type ProgressEvent,
  type ProjectionModel,
  type ProjectionOptions,
} from './projection.ts'
import { createRandomSource, type RandomSource } from './rng.ts'
import { validateLevel } from './samples.ts'

/** How one part of the wall time grows with the input. */
export type PartScaling =
  | { kind: 'fixed' }
  | { kind: 'proportional' }
  /** Events on any clock (only the slope is used), `done` in input sequences. */
  | { kind: 'progress'; events: readonly ProgressEvent[] }
  /** Work starts `onsetMs` after the part began; the true onset lies in (onsetMs - resolutionMs, onsetMs]. */
  | { kind: 'onset'; onsetMs: number; resolutionMs: number }
  /**
   * A stage sharded over workers (one per GPU): each worker's own progress events (`done` in input sequences of its
   * shard) and its share of the input. The stage ends with its slowest worker, so its per-sequence part is the largest
   * of share x slope over the workers, not the rate of all of them together.
   */
  | { kind: 'workers'; workers: readonly { events: readonly ProgressEvent[]; share: number }[] }

export interface WallPart {
  name: string
  durationMs: number
  scaling: PartScaling
}

export interface PartFit extends Fit {
  name: string
  method: PartScaling['kind']
  durationMs: number
  /** The batch-event fit behind a `progress` part; for `workers`, the slowest worker's. */
  progress?: ProjectionModel
  /** For `workers`: each worker's fit and share; the index of the one that bounds the stage. */
  workers?: { model: ProjectionModel; share: number }[]
  slowestWorker?: number
}

export interface PartsProjectionModel extends ProjectionModel {
  method: 'staged-parts'
  inputSequences: number
  parts: PartFit[]
}

function validateParts(parts: readonly WallPart[], inputSequences: number): void {
  if (!(inputSequences > 0)) throw new MeasureInputError('inputSequences', `must be > 0, got ${inputSequences}`)
  for (const part of parts) {
    if (!Number.isFinite(part.durationMs) || part.durationMs < 0) {
      throw new MeasureInputError(`part '${part.name}'`, `durationMs must be finite and >= 0, got ${part.durationMs}`)
    }
    const s = part.scaling
    if (s.kind === 'onset' && !(Number.isFinite(s.onsetMs) && s.resolutionMs >= 0)) {
      throw new MeasureInputError(`part '${part.name}'`, `onset ${s.onsetMs} ms +- ${s.resolutionMs} ms is not valid`)
    }
    if (s.kind === 'workers' && (s.workers.length === 0 || s.workers.some((w) => !(w.share > 0 && w.share <= 1)))) {
      throw new MeasureInputError(`part '${part.name}'`, 'workers need at least one, each with a share in (0, 1]')
    }
  }
}

const clamp = (x: number, low: number, high: number) => Math.min(high, Math.max(low, x))

function onsetFit(durationMs: number, onsetMs: number, n: number): Fit {
  const fixedMs = clamp(onsetMs, 0, durationMs)
  return { fixedMs, msPerSequence: (durationMs - fixedMs) / n }
}

/** The point fit of one part (and its batch model for `progress`). */
function fitPart(part: WallPart, n: number, options: ProjectionOptions): PartFit {
  const base = { name: part.name, method: part.scaling.kind, durationMs: part.durationMs }
  const s = part.scaling
  switch (s.kind) {
    case 'fixed':
      return { ...base, fixedMs: part.durationMs, msPerSequence: 0 }
    case 'proportional':
      return { ...base, fixedMs: 0, msPerSequence: part.durationMs / n }
    case 'onset':
      return { ...base, ...onsetFit(part.durationMs, s.onsetMs, n) }
    case 'progress': {
      const progress = fitProjection(s.events, options)
      const slope = progress.fit.msPerSequence
      return { ...base, fixedMs: part.durationMs - slope * n, msPerSequence: slope, progress }
    }
    case 'workers': {
      const workers = s.workers.map((w) => ({ model: fitProjection(w.events, options), share: w.share }))
      const perSequence = workers.map((w) => w.model.fit.msPerSequence * w.share)
      const slowestWorker = perSequence.indexOf(Math.max(...perSequence))
      const slope = perSequence[slowestWorker]!
      return {
        ...base,
        fixedMs: part.durationMs - slope * n,
        msPerSequence: slope,
        progress: workers[slowestWorker]!.model,
        workers,
        slowestWorker,
      }
    }
  }
}

/** Replicate `b` of a sharded part: the slowest worker in that replicate bounds it. */
function replicateWorkers(part: PartFit, n: number, b: number): Fit {
  let slope = 0
  for (const w of part.workers!) slope = Math.max(slope, (w.model.replicates[b] as Fit).msPerSequence * w.share)
  return { fixedMs: part.durationMs - slope * n, msPerSequence: slope }
}

/** Replicate `b` of one part's fit. */
function replicatePart(part: PartFit, scaling: PartScaling, n: number, b: number, random: RandomSource): Fit {
  if (part.workers) return replicateWorkers(part, n, b)
  if (part.progress) {
    const slope = (part.progress.replicates[b] as Fit).msPerSequence
    return { fixedMs: part.durationMs - slope * n, msPerSequence: slope }
  }
  if (scaling.kind === 'onset') return onsetFit(part.durationMs, scaling.onsetMs - random() * scaling.resolutionMs, n)
  return part
}

const sum = (fits: readonly Fit[]): Fit => ({
  fixedMs: fits.reduce((a, f) => a + f.fixedMs, 0),
  msPerSequence: fits.reduce((a, f) => a + f.msPerSequence, 0),
})

/**
 * Fits every part of one run on `inputSequences` sequences and sums them into one projection model (projectTo
 * projects and judges it like any ProjectionModel).
 * @throws MeasureInputError for a non-positive input count, a negative or non-finite duration, an invalid onset, or
 * progress events fitProjection refuses.
 */
export function fitPartsProjection(
  parts: readonly WallPart[],
  inputSequences: number,
  options: ProjectionOptions = {},
): PartsProjectionModel {
  validateParts(parts, inputSequences)
  const level = options.level ?? 0.95
  validateLevel(level)
  const random = options.random ?? createRandomSource()
  const resamples = options.resamples ?? PROJECTION_RESAMPLES
  const inner = { level, resamples, random }
  const fits = parts.map((part) => fitPart(part, inputSequences, { ...inner, warmupEvents: options.warmupEvents }))
  const replicates: Fit[] = []
  for (let b = 0; b < resamples; b++) {
    replicates.push(sum(fits.map((f, i) => replicatePart(f, parts[i]!.scaling, inputSequences, b, random))))
  }
  const fit = sum(fits)
  const interval = (values: number[]) => percentileInterval(Float64Array.from(values).sort(), level)
  const progress = fits.flatMap((f) => (f.progress ? [f.progress] : []))
  return {
    fixedMs: { estimate: fit.fixedMs, ci: interval(replicates.map((r) => r.fixedMs)) },
    ratePerSecond: { estimate: 1000 / fit.msPerSequence, ci: interval(replicates.map((r) => 1000 / r.msPerSequence)) },
    level,
    method: 'staged-parts',
    eventsUsed: progress.reduce((a, p) => a + p.eventsUsed, 0),
    warmupEvents: progress.reduce((a, p) => a + p.warmupEvents, 0),
    replicates,
    fit,
    inputSequences,
    parts: fits,
  }
}
