/**
 * Candidate vs baseline, one metric at a time. Two pieces of evidence, and the rule that joins them:
 * - Mann-Whitney U (two-sided, exact for small samples): is there a shift at all?
 * - the ratio median(candidate) / median(baseline) with a seeded bootstrap percentile CI: how large is it?
 * Verdict, for a practical threshold t (a share, e.g. 0.10) and the metric's direction:
 * 1. fewer than `minRunsPerSide` runs on a side -> `inconclusive` (never a verdict from one run);
 * 2. p < alpha, the shift in the worse direction by ranks, and the ratio's point estimate beyond 1 +/- t on the worse
 *    side -> `regressed` (mirror image: `improved`). "Beyond the threshold" is the point estimate, not the whole CI:
 *    requiring the whole CI beyond t demands an effect of about t + 2 standard errors, which 7 runs a side cannot
 *    deliver for effects near t (see README.md for the simulated rates of both rules);
 * 3. the ratio CI inside [1 - t, 1 + t] -> `unchanged` (any change is smaller than the threshold, with confidence);
 * 4. anything else -> `inconclusive`, with the reason.
 * The default minimum of 4 runs a side is the smallest at which the exact two-sided test can reach p < 0.05
 * (with 3 and 3 the smallest attainable p is 2/20 = 0.10, so a gate could never say `regressed`).
 */
import { bootstrapRatioOfMedians, percentileInterval } from './bootstrap.ts'
import { MeasureInputError } from './errors.ts'
import { median } from './estimators.ts'
import { type MannWhitneyResult, mannWhitney } from './mann-whitney.ts'
import { createRandomSource, type RandomSource } from './rng.ts'
import { toSorted } from './samples.ts'

export type MetricDirection = 'lower-is-better' | 'higher-is-better'
export type RegressionVerdict = 'regressed' | 'improved' | 'unchanged' | 'inconclusive'

/** Upstream's regression gate: +10% total time. */
export const DEFAULT_TIME_THRESHOLD = 0.1
export const DEFAULT_MIN_RUNS_PER_SIDE = 4
/** Resamples for the ratio CI: the end points move by well under 0.1% of the ratio between seeds at this count. */
export const REGRESSION_RESAMPLES = 4_000

export interface RegressionOptions {
  /** Practical threshold as a share of the baseline (0.1 = 10%). */
  threshold?: number
  direction?: MetricDirection
  alpha?: number
  level?: number
  minRunsPerSide?: number
  resamples?: number
  random?: RandomSource
}

export interface RatioEstimate {
  estimate: number
  ci: { low: number; high: number; level: number; method: 'bootstrap-percentile' }
}

export interface RegressionResult {
  verdict: RegressionVerdict
  reason: string
  candidate: { n: number; median: number }
  baseline: { n: number; median: number }
  /** median(candidate) / median(baseline); null when there were too few runs to estimate it. */
  ratio: RatioEstimate | null
  test: MannWhitneyResult | null
  threshold: number
  direction: MetricDirection
  alpha: number
}

type Settings = Required<Omit<RegressionOptions, 'random'>> & { random: RandomSource }

function settle(options: RegressionOptions): Settings {
  const threshold = options.threshold ?? DEFAULT_TIME_THRESHOLD
  if (!(threshold > 0 && threshold < 1)) throw new MeasureInputError('threshold', `must be in (0, 1), got ${threshold}`)
  return {
    threshold,
    direction: options.direction ?? 'lower-is-better',
    alpha: options.alpha ?? 0.05,
    level: options.level ?? 0.95,
    minRunsPerSide: Math.max(2, options.minRunsPerSide ?? DEFAULT_MIN_RUNS_PER_SIDE),
    resamples: options.resamples ?? REGRESSION_RESAMPLES,
    random: options.random ?? createRandomSource(),
  }
}

function decide(
  ratio: RatioEstimate,
  test: MannWhitneyResult,
  s: Settings,
): { verdict: RegressionVerdict; reason: string } {
  const t = s.threshold
  const significant = test.p < s.alpha
  // For lower-is-better metrics a larger candidate is worse; ranks agree when P(candidate > baseline) > 1/2.
  const sign = s.direction === 'lower-is-better' ? 1 : -1
  const worseByRanks = sign * (test.probabilityOfSuperiority - 0.5) > 0
  const worseByRatio = sign * (ratio.estimate - 1) > t
  const betterByRatio = sign * (ratio.estimate - 1) < -t
  const shown = `ratio ${ratio.estimate.toFixed(4)} [${ratio.ci.low.toFixed(4)}, ${ratio.ci.high.toFixed(4)}], p ${test.p.toPrecision(3)}`
  if (significant && worseByRanks && worseByRatio) return { verdict: 'regressed', reason: `${shown}: beyond ${t}` }
  if (significant && !worseByRanks && betterByRatio) return { verdict: 'improved', reason: `${shown}: beyond ${t}` }
  if (ratio.ci.low >= 1 - t && ratio.ci.high <= 1 + t)
    return { verdict: 'unchanged', reason: `${shown}: CI within ${t}` }
  const why = significant ? 'significant but not beyond the threshold' : 'not significant and CI reaches past threshold'
  return { verdict: 'inconclusive', reason: `${shown}: ${why}` }
}

/**
 * Compares one metric's candidate runs with its baseline runs.
 * @throws MeasureInputError when a value is not finite, the baseline median is not positive, or an option is invalid.
 */
export function compareRuns(
  candidate: readonly number[],
  baseline: readonly number[],
  options: RegressionOptions = {},
): RegressionResult {
  const s = settle(options)
  const sortedCandidate = toSorted(candidate, 'candidate runs')
  const sortedBaseline = toSorted(baseline, 'baseline runs')
  const base = { threshold: s.threshold, direction: s.direction, alpha: s.alpha }
  const sides = {
    candidate: { n: candidate.length, median: median(sortedCandidate) },
    baseline: { n: baseline.length, median: median(sortedBaseline) },
  }
  if (sides.baseline.median <= 0) {
    throw new MeasureInputError('baseline runs', `median must be positive for a ratio, got ${sides.baseline.median}`)
  }
  if (candidate.length < s.minRunsPerSide || baseline.length < s.minRunsPerSide) {
    const reason = `too few runs: candidate ${candidate.length}, baseline ${baseline.length} (need >= ${s.minRunsPerSide} a side)`
    return { verdict: 'inconclusive', reason, ...sides, ratio: null, test: null, ...base }
  }
  const replicates = bootstrapRatioOfMedians(sortedCandidate, sortedBaseline, s.resamples, s.random)
  const ci = { ...percentileInterval(replicates, s.level), level: s.level, method: 'bootstrap-percentile' as const }
  const ratio = { estimate: sides.candidate.median / sides.baseline.median, ci }
  const test = mannWhitney(candidate, baseline)
  return { ...decide(ratio, test, s), ...sides, ratio, test, ...base }
}
