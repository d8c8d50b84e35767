/**
 * The median with a confidence interval, by one of two methods, and the result says which:
 * - `order-statistic`: the distribution-free interval [x(k), x(n-k+1)] from the Binomial(n, 1/2) law of how many
 *   samples fall below the true median. Its coverage is exact for continuous data (conservative with ties) and is
 *   reported; for n <= 5 even [min, max] cannot reach 95% (it covers 1 - 2^(1-n)), which the result shows.
 * - `bootstrap-percentile`: seeded percentile bootstrap. Asymptotically right, but for a handful of runs it under-covers,
 *   because a resampled median can only take a few of the observed values.
 * `auto` uses the order statistic up to ORDER_STATISTIC_MAX_N runs (the repeated-run case of this suite) and the
 * bootstrap above it.
 */
import { bootstrapQuantile, DEFAULT_RESAMPLES, percentileInterval } from './bootstrap.ts'
import { median } from './estimators.ts'
import { createRandomSource, type RandomSource } from './rng.ts'
import type { SortedSamples } from './samples.ts'
import { validateLevel } from './samples.ts'

/** Largest n for which `auto` picks the order-statistic interval. */
export const ORDER_STATISTIC_MAX_N = 30

export type CiMethod = 'order-statistic' | 'bootstrap-percentile'

export interface ConfidenceInterval {
  low: number
  high: number
  /** The level asked for, e.g. 0.95. */
  level: number
  /** Exact coverage of the method where it is known (order statistic, continuous data); null for the bootstrap. */
  coverage: number | null
  method: CiMethod
}

export interface MedianEstimate {
  median: number
  n: number
  /** Null when n < 2: one run says nothing about its own uncertainty. */
  ci: ConfidenceInterval | null
}

export interface MedianCiOptions {
  level?: number
  method?: CiMethod | 'auto'
  resamples?: number
  random?: RandomSource
}

/** P(B <= k) for B ~ Binomial(n, 1/2), for k = 0..kMax, summed in log space so that large n does not underflow. */
function binomialHalfCdf(n: number, kMax: number): number[] {
  const cdf: number[] = []
  let logPmf = -n * Math.LN2
  let total = 0
  for (let k = 0; k <= kMax; k++) {
    total += Math.exp(logPmf)
    cdf.push(total)
    logPmf += Math.log(n - k) - Math.log(k + 1)
  }
  return cdf
}

/**
 * 1-based ranks (k, n - k + 1) of the narrowest symmetric order-statistic interval whose coverage reaches `level`, and
 * that coverage. When no interval reaches it (small n), the widest one, [min, max], with its smaller coverage.
 */
export function orderStatisticRanks(n: number, level: number): { lowRank: number; highRank: number; coverage: number } {
  validateLevel(level)
  const half = Math.floor(n / 2)
  const cdf = binomialHalfCdf(n, Math.max(0, half - 1))
  let lowRank = 1
  for (let k = 2; k <= half; k++) {
    if (1 - 2 * (cdf[k - 1] as number) < level) break
    lowRank = k
  }
  const coverage = n < 2 ? 0 : 1 - 2 * (cdf[lowRank - 1] as number)
  return { lowRank, highRank: n - lowRank + 1, coverage }
}

function orderStatisticCi(sorted: SortedSamples, level: number): ConfidenceInterval {
  const { lowRank, highRank, coverage } = orderStatisticRanks(sorted.length, level)
  const low = sorted[lowRank - 1] as number
  const high = sorted[highRank - 1] as number
  return { low, high, level, coverage, method: 'order-statistic' }
}

function bootstrapCi(
  sorted: SortedSamples,
  level: number,
  resamples: number,
  random: RandomSource,
): ConfidenceInterval {
  const { low, high } = percentileInterval(bootstrapQuantile(sorted, 0.5, resamples, random), level)
  return { low, high, level, coverage: null, method: 'bootstrap-percentile' }
}

/**
 * Median of the runs with its confidence interval.
 * @throws MeasureInputError when the level is not in (0, 1).
 */
export function medianWithCi(sorted: SortedSamples, options: MedianCiOptions = {}): MedianEstimate {
  const level = options.level ?? 0.95
  validateLevel(level)
  const n = sorted.length
  if (n < 2) return { median: median(sorted), n, ci: null }
  const method = options.method ?? 'auto'
  const useOrderStatistic = method === 'order-statistic' || (method === 'auto' && n <= ORDER_STATISTIC_MAX_N)
  const ci = useOrderStatistic
    ? orderStatisticCi(sorted, level)
    : bootstrapCi(sorted, level, options.resamples ?? DEFAULT_RESAMPLES, options.random ?? createRandomSource())
  return { median: median(sorted), n, ci }
}

/** CI half-width as a share of the median, (high - low) / 2 / |median|; null without a CI or with a zero median. */
export function relativeHalfWidth(estimate: MedianEstimate): number | null {
  if (estimate.ci === null || estimate.median === 0) return null
  return (estimate.ci.high - estimate.ci.low) / 2 / Math.abs(estimate.median)
}
