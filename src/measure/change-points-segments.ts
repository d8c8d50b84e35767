/**
 * What the change-point search and its merge step share: the detector's context, the allowed splits of a stretch of
 * history (key boundaries only), a segment's median with CI, and the rule that decides whether a level change is big
 * enough to report.
 */
import { type EnergyScratch, energyProfile, permutationPValue } from './change-points-energy.ts'
import { orderStatisticRanks } from './median-ci.ts'
import type { RandomSource } from './rng.ts'

/**
 * Points per window of the search, and twice the points each side that a change's test looks at. Otava/Hunter's
 * default window is 50. Measured (README.md): 40 gave more false changes with 3 runs a commit, 100 and 120 slightly
 * better rates at 1.5-2.2x the time of 60.
 */
export const WINDOW_POINTS = 60
/** Fewest points a side of a split may have: a median and a within-side distance need a few. */
export const MIN_SIDE_POINTS = 3

export interface DetectorContext {
  values: Float64Array
  /** Indices i > 0 with keys[i] !== keys[i - 1], ascending: the only places a change may sit. */
  boundaries: Int32Array
  minRelativeEffect: number
  alpha: number
  permutations: number
  random: RandomSource
  windowPoints: number
  scratch: EnergyScratch
  /** Copy of the segment under test (Q and the shuffles work on it). */
  segment: Float64Array
  /** Order-statistic CI ranks by n, computed once per call and size (their binomial sums are O(n)). */
  ranks: Map<number, { lowRank: number; highRank: number }>
}

/** Index of the first boundary >= index (binary search). */
function firstBoundaryAtOrAfter(boundaries: Int32Array, index: number): number {
  let low = 0
  let high = boundaries.length
  while (low < high) {
    const mid = (low + high) >>> 1
    if ((boundaries[mid] as number) < index) low = mid + 1
    else high = mid
  }
  return low
}

/** Boundaries b in [start + MIN_SIDE_POINTS, end - MIN_SIDE_POINTS], as offsets from `start`. */
export function cutsWithin(context: DetectorContext, start: number, end: number): Int32Array {
  const { boundaries } = context
  const from = firstBoundaryAtOrAfter(boundaries, start + MIN_SIDE_POINTS)
  const to = firstBoundaryAtOrAfter(boundaries, end - MIN_SIDE_POINTS + 1)
  const cuts = new Int32Array(Math.max(0, to - from))
  for (let c = 0; c < cuts.length; c++) cuts[c] = (boundaries[from + c] as number) - start
  return cuts
}

/** Loads values[start..end) into the context's segment buffer and fills the Q profile over `cuts`. */
export function profileSegment(context: DetectorContext, start: number, end: number, cuts: Int32Array): void {
  context.segment.set(context.values.subarray(start, end))
  energyProfile(context.segment, end - start, cuts, context.scratch)
}

/** Permutation p of `observed` over the segment last loaded by `profileSegment`. */
export function segmentPValue(context: DetectorContext, m: number, cuts: Int32Array, observed: number): number {
  return permutationPValue(context.segment, m, cuts, observed, context, context.scratch)
}

/** A stretch of history's level: median of its values and the 95% CI of that median. */
export interface SegmentLevel {
  /** Median of the segment's values (type-7, as estimators.median). */
  median: number
  /** 95% order-statistic CI of the median ([min, max], below 95%, for n <= 5); null when n < 2. */
  ci: { low: number; high: number } | null
  n: number
}

/**
 * Level of values[start..end): the order-statistic CI of median-ci.ts, distribution-free at any n and without
 * resampling (a segment may hold thousands of runs, where medianWithCi's `auto` would draw 10,000 bootstrap
 * resamples). Sorted as a typed array: the search asks this of two window halves per window, and typed sorts are
 * several times faster than an array with a comparator.
 */
export function segmentLevel(context: DetectorContext, start: number, end: number): SegmentLevel {
  const sorted = context.values.slice(start, end).sort()
  const n = sorted.length
  const half = n >> 1
  const median = n % 2 === 1 ? (sorted[half] as number) : ((sorted[half - 1] as number) + (sorted[half] as number)) / 2
  if (n < 2) return { median, ci: null, n }
  let ranks = context.ranks.get(n)
  if (!ranks) {
    ranks = orderStatisticRanks(n, 0.95)
    context.ranks.set(n, ranks)
  }
  return { median, ci: { low: sorted[ranks.lowRank - 1] as number, high: sorted[ranks.highRank - 1] as number }, n }
}

/** (after - before) / |before| of the medians; +-Infinity when the level leaves exactly zero, 0 when both are zero. */
export function relativeChangeOf(before: number, after: number): number {
  if (before === 0) return after === 0 ? 0 : Math.sign(after) * Number.POSITIVE_INFINITY
  return (after - before) / Math.abs(before)
}

/**
 * The widest relative change that the two medians' 95% CIs allow, in the observed direction (far CI end against far
 * CI end). This is what a change may be; the point estimate is what it most likely is.
 */
export function reachOf(before: SegmentLevel, after: SegmentLevel): number {
  const up = after.median >= before.median
  const afterEnd = up ? (after.ci?.high ?? after.median) : (after.ci?.low ?? after.median)
  const beforeEnd = up ? (before.ci?.low ?? before.median) : (before.ci?.high ?? before.median)
  return Math.abs(relativeChangeOf(before.median, before.median + (afterEnd - beforeEnd)))
}

/** Share of minRelativeEffect that the point estimate of a reported change must reach (see isLargeEnough). */
export const POINT_FLOOR_SHARE = 0.75

/**
 * Whether a significant level change is large enough to report: its CIs allow a change of minRelativeEffect (it is
 * dropped when they show it is smaller, the mirror of regression.ts's `unchanged`), and its point estimate reaches
 * 3/4 of it. The point estimate alone drops a true step exactly at the threshold half the time; the CIs alone let
 * short, imprecise segments through with a change far below it. README.md has the simulated numbers for both.
 */
export function isLargeEnough(before: SegmentLevel, after: SegmentLevel, minRelativeEffect: number): boolean {
  const point = Math.abs(relativeChangeOf(before.median, after.median))
  return point >= POINT_FLOOR_SHARE * minRelativeEffect && reachOf(before, after) >= minRelativeEffect
}
