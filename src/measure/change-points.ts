/**
 * Change points in a metric's history: E-Divisive (Matteson & James 2014) with a permutation test, in the windowed form
 * that Apache Otava (formerly Hunter) and MongoDB's performance CI run over long histories.
 *
 * 1. Search (change-points-search.ts): E-Divisive bisection inside windows of 60 points that overlap by half, each
 *    keeping the splits in its middle half; a split is tested by permutation only when its window medians could show
 *    a change near minRelativeEffect.
 * 2. Merge (change-points-merge.ts): each candidate is judged between its neighbours; the weakest failing one is dropped
 *    and its neighbours judged again, until every change is significant (p < alpha) and large enough (isLargeEnough).
 * A change sits only where the key changes: runs of one key (one commit) are one level.
 * Cost: O(n * 60) for the search on a history of n points (the energy statistic of a window is O(60^2)), plus
 * O(permutations * 60^2) per tested split, and a sort per judged segment; on a stable history at a 10% threshold almost
 * no split is tested. README.md gives the rates measured by simulation and the benchmark.
 */
import { createEnergyScratch } from './change-points-energy.ts'
import { type JudgedCandidate, mergeCandidates } from './change-points-merge.ts'
import { findCandidates } from './change-points-search.ts'
import { type DetectorContext, MIN_SIDE_POINTS, type SegmentLevel, WINDOW_POINTS } from './change-points-segments.ts'
import { MeasureInputError } from './errors.ts'
import { createRandomSource, type RandomSource } from './rng.ts'
import { validateSamples } from './samples.ts'

/** Permutations per test when the caller does not choose: p's Monte Carlo SE at p = 0.05 is then 1.5 points. */
export const DEFAULT_CHANGE_PERMUTATIONS = 199
/** Fewest points in which a change can be found (MIN_SIDE_POINTS a side); fewer give an empty list. */
export const MIN_CHANGE_POINTS = 2 * MIN_SIDE_POINTS

export type { SegmentLevel }
/** Fewest points a side of a change: a change at the newest commit is confirmed only after this many of its runs. */
export { MIN_SIDE_POINTS }

export interface ChangePointOptions {
  /**
   * Smallest relative change of the level that counts (e.g. 0.1 = 10%), from thresholds.regression.timeThreshold by
   * default at the caller. A significant change is reported when its medians moved by at least 3/4 of it and their 95%
   * CIs allow the whole of it, so a true step at the threshold is not lost to noise half the time (README.md).
   */
  minRelativeEffect: number
  /** Significance level of the permutation test (default 0.05). */
  alpha?: number
  /** Permutations per test (default 199). Must allow p < alpha: 1 / (permutations + 1) < alpha. */
  permutations?: number
  /** 'lower' when a smaller value is better (times), 'higher' when larger is better (rates, utilization, speedup). */
  better: 'lower' | 'higher'
  /** Seeded source for the permutations; default createRandomSource() (DEFAULT_SEED), so a call is reproducible. */
  random?: RandomSource
}

export interface ChangePoint {
  /** Index of the first point after the change (points are in history order). */
  index: number
  /** Commit range: the last key before the change and the first key after it. */
  fromKey: string
  toKey: string
  /** The level from the previous change (or the start) up to this one. */
  before: SegmentLevel
  /** The level from this change up to the next one (or the end). */
  after: SegmentLevel
  /** (after - before) / |before|, medians; +-Infinity when the level leaves exactly 0. */
  relativeChange: number
  /**
   * Permutation p of the energy statistic at this split over at most 30 points each side (clipped at the neighbouring
   * changes), against the max over every split there.
   */
  pValue: number
  /** True when the change goes the bad way ('lower' better: it went up). */
  regression: boolean
}

function validateOptions(options: ChangePointOptions): void {
  const { minRelativeEffect, alpha = 0.05, permutations = DEFAULT_CHANGE_PERMUTATIONS, better } = options
  if (!(Number.isFinite(minRelativeEffect) && minRelativeEffect >= 0))
    throw new MeasureInputError('minRelativeEffect', `must be a finite number >= 0, got ${minRelativeEffect}`)
  if (!(alpha > 0 && alpha < 1)) throw new MeasureInputError('alpha', `must be in (0, 1), got ${alpha}`)
  if (!Number.isSafeInteger(permutations) || permutations < 1)
    throw new MeasureInputError('permutations', `must be a positive integer, got ${permutations}`)
  if (1 / (permutations + 1) >= alpha)
    throw new MeasureInputError(
      'permutations',
      `${permutations} cannot give p < ${alpha} (smallest p is 1 / ${permutations + 1}); use at least ${Math.floor(1 / alpha)}`,
    )
  if (better !== 'lower' && better !== 'higher')
    throw new MeasureInputError('better', `must be 'lower' or 'higher', got ${String(better)}`)
}

/** Checks the inputs and returns the key boundaries (indices i > 0 where the key changes). */
function validateHistory(values: readonly number[], keys: readonly string[]): Int32Array {
  validateSamples(values, 'values', 0)
  if (keys.length !== values.length) {
    const index = Math.min(keys.length, values.length)
    const missing = keys.length < values.length ? 'a value with no key' : 'a key with no value'
    throw new MeasureInputError(
      'keys',
      `${keys.length} keys for ${values.length} values: index ${index} has ${missing} (one key per value)`,
    )
  }
  const boundaries: number[] = []
  for (let i = 0; i < keys.length; i++) {
    if (typeof keys[i] !== 'string')
      throw new MeasureInputError('keys', `key at index ${i} is not a string: ${String(keys[i])}`)
    if (i > 0 && keys[i] !== keys[i - 1]) boundaries.push(i)
  }
  return Int32Array.from(boundaries)
}

function toChangePoint(c: JudgedCandidate, keys: readonly string[], better: 'lower' | 'higher'): ChangePoint {
  const wentUp = c.after.median > c.before.median
  const wentDown = c.after.median < c.before.median
  return {
    index: c.index,
    fromKey: keys[c.index - 1] as string,
    toKey: keys[c.index] as string,
    before: c.before,
    after: c.after,
    relativeChange: c.relativeChange,
    pValue: c.pValue,
    regression: better === 'lower' ? wentUp : wentDown,
  }
}

/**
 * Change points of one metric's history, sorted by index.
 * @param values values[i] measured at keys[i] (e.g. the target's git commit), in history order
 * @param keys one key per value; several runs of one key are adjacent, and a change only sits where the key changes
 * @returns the changes; empty when there are fewer than MIN_CHANGE_POINTS points or only one key (nothing to split),
 *   as well as when nothing changed
 * @throws MeasureInputError naming the index of a non-finite value or of the first value without a key (or key
 *   without a value), or naming a bad option
 */
export function detectChangePoints(
  values: readonly number[],
  keys: readonly string[],
  options: ChangePointOptions,
): ChangePoint[] {
  validateOptions(options)
  const boundaries = validateHistory(values, keys)
  if (values.length < MIN_CHANGE_POINTS || boundaries.length === 0) return []
  const context: DetectorContext = {
    values: Float64Array.from(values),
    boundaries,
    minRelativeEffect: options.minRelativeEffect,
    alpha: options.alpha ?? 0.05,
    permutations: options.permutations ?? DEFAULT_CHANGE_PERMUTATIONS,
    random: options.random ?? createRandomSource(),
    windowPoints: WINDOW_POINTS,
    scratch: createEnergyScratch(WINDOW_POINTS),
    segment: new Float64Array(WINDOW_POINTS),
    ranks: new Map(),
  }
  const judged = mergeCandidates(context, findCandidates(context))
  return judged.map((c) => toChangePoint(c, keys, options.better))
}
