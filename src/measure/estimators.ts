/**
 * Point estimates over one sample. The arithmetic comes from simple-statistics (small, typed, maintained, pure
 * functions; its `quantileSorted` is the numpy/R type-7 linear rule, so figures match what a reader would get from
 * numpy.quantile or R's default). We add only what it lacks: the
 * normal-consistent MAD scale and a guard for n = 1.
 */
import {
  quantileSorted,
  sampleStandardDeviation,
  mean as ssMean,
  medianAbsoluteDeviation as ssMedianAbsoluteDeviation,
} from 'simple-statistics'
import type { SortedSamples } from './samples.ts'

/** Makes the MAD a consistent estimator of the standard deviation for normal data (1 / Phi^-1(3/4)). */
export const MAD_NORMAL_SCALE = 1.482602218505602

/** The quantiles every summary carries; p50 is the median. */
export const SUMMARY_QUANTILES = [0.05, 0.25, 0.5, 0.75, 0.95, 0.99] as const

export interface SampleSummary {
  n: number
  mean: number
  /** Sample standard deviation (n - 1 denominator); 0 when n = 1. */
  sd: number
  median: number
  /** Raw median absolute deviation (not scaled). */
  mad: number
  /** MAD x 1.4826: a robust stand-in for sd. */
  madScaled: number
  /** Coefficient of variation sd / mean; null when the mean is 0. */
  cv: number | null
  min: number
  max: number
  p5: number
  p25: number
  p75: number
  p95: number
  p99: number
}

/** Type-7 quantile of sorted samples, p in [0, 1]. */
export function quantile(sorted: SortedSamples, p: number): number {
  return quantileSorted(sorted, p)
}

/** Median of sorted samples (type-7, i.e. the mean of the two middle values for even n). */
export function median(sorted: SortedSamples): number {
  return quantileSorted(sorted, 0.5)
}

/** Raw (unscaled) median absolute deviation from the median. */
export function medianAbsoluteDeviation(sorted: SortedSamples): number {
  return ssMedianAbsoluteDeviation(sorted)
}

/** Sample standard deviation; 0 for a single value (no spread can be seen in one run). */
export function standardDeviation(sorted: SortedSamples): number {
  return sorted.length < 2 ? 0 : sampleStandardDeviation(sorted)
}

/** Flat summary of one sample: location, spread, quantiles. Pure; n >= 1 is the caller's promise (SortedSamples). */
export function summarize(sorted: SortedSamples): SampleSummary {
  const mean = ssMean(sorted)
  const sd = standardDeviation(sorted)
  const mad = medianAbsoluteDeviation(sorted)
  return {
    n: sorted.length,
    mean,
    sd,
    median: median(sorted),
    mad,
    madScaled: mad * MAD_NORMAL_SCALE,
    cv: mean === 0 ? null : sd / Math.abs(mean),
    min: sorted[0] as number,
    max: sorted[sorted.length - 1] as number,
    p5: quantile(sorted, 0.05),
    p25: quantile(sorted, 0.25),
    p75: quantile(sorted, 0.75),
    p95: quantile(sorted, 0.95),
    p99: quantile(sorted, 0.99),
  }
}
