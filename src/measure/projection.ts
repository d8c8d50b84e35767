/**
 * Projection of a run on N sequences to M sequences: time(M) = fixed + M / rate.
 * - rate: least squares of elapsed time on sequences done, over the batch progress events after the first
 *   `warmupEvents` (warm-up batches are slower: allocator growth, kernel autotuning, caches filling);
 * - fixed: the intercept of that line, i.e. start-up, model load and warm-up excess, everything before steady state.
 * CI: bootstrap over batches. The steady-state increments (time and sequences per batch) are resampled with
 * replacement and cumulated from the first steady event, then refitted; percentile CIs for fixed, rate and each target.
 * This keeps the cumulative shape of the series (resampling the (t, done) points themselves would not).
 * The CI covers batch-to-batch variation within this run only, not run-to-run variation of start-up cost.
 */
import { percentileInterval } from './bootstrap.ts'
import { MeasureInputError } from './errors.ts'
import { createRandomSource, type RandomSource } from './rng.ts'
import { validateLevel } from './samples.ts'

/** A batch progress event: ms since the process started, and sequences completed so far. */
export interface ProgressEvent {
  tMs: number
  done: number
}

export interface ProjectionOptions {
  /** Events dropped from the fit as warm-up; default 10% of the events, at least 1. */
  warmupEvents?: number
  level?: number
  resamples?: number
  random?: RandomSource
}

export interface Fit {
  fixedMs: number
  msPerSequence: number
}

export interface ProjectionModel {
  fixedMs: { estimate: number; ci: { low: number; high: number } }
  ratePerSecond: { estimate: number; ci: { low: number; high: number } }
  level: number
  /** 'staged-parts': a sum of parts (projection-parts.ts). */
  method: 'ols-batch-bootstrap' | 'staged-parts'
  eventsUsed: number
  warmupEvents: number
  /** Bootstrap replicates of the fit, kept so that any M can be projected with a CI. */
  replicates: Fit[]
  fit: Fit
}

/** Bootstrap resamples for the projection: each one is a full refit, so fewer than for a median. */
export const PROJECTION_RESAMPLES = 2_000

/**
 * Least squares of tMs on done, centred (as simple-statistics' linearRegression, which the tests check it against)
 * but over typed arrays, because the bootstrap refits thousands of times and must not allocate per point.
 */
export function fitLine(done: ArrayLike<number>, tMs: ArrayLike<number>): Fit {
  const n = done.length
  let sumDone = 0
  let sumT = 0
  for (let i = 0; i < n; i++) {
    sumDone += done[i] as number
    sumT += tMs[i] as number
  }
  const meanDone = sumDone / n
  const meanT = sumT / n
  let sxy = 0
  let sxx = 0
  for (let i = 0; i < n; i++) {
    const dx = (done[i] as number) - meanDone
    sxy += dx * ((tMs[i] as number) - meanT)
    sxx += dx * dx
  }
  const msPerSequence = sxy / sxx
  return { fixedMs: meanT - msPerSequence * meanDone, msPerSequence }
}

function validateEvents(events: readonly ProgressEvent[], warmupEvents: number): void {
  if (events.length - warmupEvents < 3) {
    throw new MeasureInputError(
      'progress events',
      `need >= 3 after ${warmupEvents} warm-up event(s), got ${events.length}`,
    )
  }
  for (let i = 0; i < events.length; i++) {
    const event = events[i] as ProgressEvent
    const previous = events[i - 1]
    if (!Number.isFinite(event.tMs) || !Number.isFinite(event.done)) {
      throw new MeasureInputError('progress events', `event ${i} is not finite: tMs ${event.tMs}, done ${event.done}`)
    }
    if (previous !== undefined && (event.tMs < previous.tMs || event.done <= previous.done)) {
      throw new MeasureInputError(
        'progress events',
        `event ${i} goes backwards or repeats (tMs ${event.tMs}, done ${event.done})`,
      )
    }
  }
}

/** One bootstrap series: the first steady event, then resampled (dt, ddone) increments cumulated from it. */
function resampleFit(
  steady: readonly ProgressEvent[],
  random: RandomSource,
  done: Float64Array,
  tMs: Float64Array,
): Fit {
  const anchor = steady[0] as ProgressEvent
  const increments = steady.length - 1
  done[0] = anchor.done
  tMs[0] = anchor.tMs
  for (let i = 1; i <= increments; i++) {
    const j = 1 + Math.floor(random() * increments)
    const to = steady[j] as ProgressEvent
    const from = steady[j - 1] as ProgressEvent
    done[i] = (done[i - 1] as number) + to.done - from.done
    tMs[i] = (tMs[i - 1] as number) + to.tMs - from.tMs
  }
  return fitLine(done, tMs)
}

/**
 * Fits fixed cost and steady-state rate from one run's progress events, with bootstrap CIs.
 * @throws MeasureInputError when events are too few, not finite, or go backwards.
 */
export function fitProjection(events: readonly ProgressEvent[], options: ProjectionOptions = {}): ProjectionModel {
  const level = options.level ?? 0.95
  validateLevel(level)
  const warmupEvents = options.warmupEvents ?? Math.max(1, Math.floor(events.length * 0.1))
  validateEvents(events, warmupEvents)
  const steady = events.slice(warmupEvents)
  const fit = fitLine(
    steady.map((event) => event.done),
    steady.map((event) => event.tMs),
  )
  const random = options.random ?? createRandomSource()
  const done = new Float64Array(steady.length)
  const tMs = new Float64Array(steady.length)
  const replicates: Fit[] = []
  for (let b = 0; b < (options.resamples ?? PROJECTION_RESAMPLES); b++) {
    replicates.push(resampleFit(steady, random, done, tMs))
  }
  const interval = (values: number[]) => percentileInterval(Float64Array.from(values).sort(), level)
  const rates = interval(replicates.map((r) => 1000 / r.msPerSequence))
  return {
    fixedMs: { estimate: fit.fixedMs, ci: interval(replicates.map((r) => r.fixedMs)) },
    ratePerSecond: { estimate: 1000 / fit.msPerSequence, ci: rates },
    level,
    method: 'ols-batch-bootstrap',
    eventsUsed: steady.length,
    warmupEvents,
    replicates,
    fit,
  }
}
