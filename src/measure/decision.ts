/**
 * Deciding a verdict with the least measuring: where an interval sits against a threshold (with an indifference
 * zone), the interval level each look may use so that repeated looks keep the error bounded, and the chance that
 * narrowing an interval decides it.
 *
 * Why planned looks with Bonferroni spending and not a re-check of a 95% interval after every run: peeking at a fixed
 * interval after each sample inflates the error (google/tachometer's auto-sampling; about 29% false positives after 30
 * daily looks at a z-test), and confidence sequences, valid at any stopping time, are wider than what the 3-10 runs a
 * GPU pipeline affords can narrow (z about 3.3 against 2.5 for four planned looks). With at most K looks and each look's
 * interval at level 1 - alpha / K, the chance that any look's interval misses the truth is at most alpha (a union
 * bound over the looks), so a verdict decided at any look is wrong with probability at most alpha / 2 in each
 * direction, however the stopping time was chosen.
 *
 * Why an indifference zone: when the truth sits at the threshold no number of runs decides it (Wald's SPRT runs
 * longest there); an interval wholly within +-margin of the threshold says "at threshold", an answer a planner can use
 * (the chess-engine testers' elo0/elo1 band).
 */
import { normalCdf, normalQuantile } from './distributions.ts'
import { MeasureInputError } from './errors.ts'
import { validateLevel } from './samples.ts'

/** Which side of the threshold passes. */
export type Direction = 'at-most' | 'at-least'
export type DecisionState = 'pass' | 'fail' | 'at-threshold' | 'undecided'

/**
 * The two-sided interval level one of `looks` planned looks judges at, so that `alpha` is the error over all of them.
 * @throws MeasureInputError for alpha outside (0, 1) or looks not a whole number >= 1.
 */
export function lookLevel(alpha: number, looks: number): number {
  if (!(alpha > 0 && alpha < 1)) throw new MeasureInputError('look level', `alpha must be in (0, 1), got ${alpha}`)
  if (!(Number.isInteger(looks) && looks >= 1))
    throw new MeasureInputError('look level', `looks must be a whole number >= 1, got ${looks}`)
  return 1 - alpha / looks
}

/** The standard normal quantile of a two-sided interval at `level` (1.96 at 0.95). */
export function twoSidedZ(level: number): number {
  validateLevel(level)
  return normalQuantile(1 - (1 - level) / 2)
}

const validateThreshold = (threshold: number, margin: number) => {
  if (!(Number.isFinite(threshold) && threshold > 0))
    throw new MeasureInputError('decision', `threshold must be finite and > 0, got ${threshold}`)
  if (!(margin >= 0 && margin < 1)) throw new MeasureInputError('decision', `margin must be in [0, 1), got ${margin}`)
}

/**
 * Where an interval sits: wholly on the passing side (`pass`), wholly on the failing side (`fail`), wholly within
 * threshold x (1 +- margin) (`at-threshold`), or across (`undecided`). An interval that touches the threshold from the
 * passing side passes (`<= 10 h` holds at 10 h).
 * @throws MeasureInputError for a threshold that is not > 0, a margin outside [0, 1) or an interval with low > high.
 */
export function decideInterval(
  ci: { low: number; high: number },
  threshold: number,
  direction: Direction,
  margin: number,
): DecisionState {
  validateThreshold(threshold, margin)
  if (!(ci.low <= ci.high)) throw new MeasureInputError('decision', `interval [${ci.low}, ${ci.high}] is reversed`)
  const [passes, fails] =
    direction === 'at-most' ? [ci.high <= threshold, ci.low > threshold] : [ci.low >= threshold, ci.high < threshold]
  if (passes) return 'pass'
  if (fails) return 'fail'
  if (ci.low >= threshold * (1 - margin) && ci.high <= threshold * (1 + margin)) return 'at-threshold'
  return 'undecided'
}

const phi = normalCdf

/**
 * The chance that an interval of half-width `halfWidthNow` around `estimate` decides (passes, fails or sits at the
 * threshold) once more runs narrow it to `halfWidthAfter`, the two at the same level (z). Where the estimate will be
 * then is not known now: as a mean of more runs it moves around today's with a standard deviation of
 * sqrt(now² - after²) / z (the variance the new runs remove is the variance of that move), and it is decided where its
 * new interval clears the threshold or fits the zone. No narrowing, no move: decided now or never.
 * An infinite `halfWidthAfter` (no interval after) gives 0.
 * @throws MeasureInputError for a half-width < 0 or NaN, an after wider than now, or a bad threshold or margin.
 */
export function chanceOfDeciding(o: {
  estimate: number
  halfWidthNow: number
  halfWidthAfter: number
  threshold: number
  margin: number
  z: number
}): number {
  validateThreshold(o.threshold, o.margin)
  // No interval after the runs (a size of one run): nothing can be decided from it.
  if (o.halfWidthAfter === Number.POSITIVE_INFINITY) return 0
  if (!(o.halfWidthAfter >= 0) || !(o.halfWidthNow >= o.halfWidthAfter))
    throw new MeasureInputError(
      'decision',
      `half-widths must be now >= after >= 0, got ${o.halfWidthNow}, ${o.halfWidthAfter}`,
    )
  if (!(o.z > 0)) throw new MeasureInputError('decision', `z must be > 0, got ${o.z}`)
  const moveSd = Number.isFinite(o.halfWidthNow)
    ? Math.sqrt(o.halfWidthNow ** 2 - o.halfWidthAfter ** 2) / o.z
    : Number.POSITIVE_INFINITY
  const h = o.halfWidthAfter
  const t = o.threshold
  // P(future estimate > x) and P(< x), a point mass at today's estimate when nothing moves it.
  const above = (x: number) => (moveSd > 0 ? 1 - phi((x - o.estimate) / moveSd) : o.estimate > x ? 1 : 0)
  const below = (x: number) => (moveSd > 0 ? phi((x - o.estimate) / moveSd) : o.estimate < x ? 1 : 0)
  // Clearing either side (decided pass or fail, whichever side passes), or sitting inside the zone.
  const clear = above(t + h) + below(t - h)
  // The zone only where neither side is cleared (an estimate there counts once).
  const zoneLow = Math.max(t * (1 - o.margin) + h, t - h)
  const zoneHigh = Math.min(t * (1 + o.margin) - h, t + h)
  const zone = zoneHigh > zoneLow ? Math.max(0, below(zoneHigh) - below(zoneLow)) : 0
  return Math.min(1, clear + zone)
}
