/**
 * Does a line fit runs at three or more sizes? The lack-of-fit F test (e.g. Draper and Smith, Applied Regression
 * Analysis, 2.1): the spread of the sizes' means about the fitted line against the spread of the runs about their
 * own size's mean (pure error), which a line cannot reduce. Two sizes always fit a line exactly, so a per-unit cost
 * that grows with size (VirNucPro: 6.1 ms a sequence from 1,000 to 4,000 records, 7.2 from 4,000 to 20,000) shows only
 * from a third size on; then a line through the data projects far beyond it low, and this test is how the model says so.
 *
 * The run-to-run spread is taken as proportional to the run's time (the noise of a host slowdown, which scales a whole
 * run: size-design.ts), so each size is weighted by runs / mean² and its pure error read relative to its mean: a large
 * size's larger spread in seconds then neither hides a bend nor makes one.
 */

import { fSurvival } from './distributions.ts'
import { MeasureInputError } from './errors.ts'
import { fitWeightedLine } from './size-model.ts'

/** One size's runs of a series: count, mean and standard deviation (NaN or any value with one run). */
export interface LineFitGroup {
  size: number
  runs: number
  mean: number
  sd: number
}

export interface LineFitTest {
  /** The lack-of-fit F statistic (Infinity when the runs at each size agree exactly and the means do not). */
  f: number
  /** Degrees of freedom: sizes - 2, and runs - sizes. */
  df1: number
  df2: number
  pValue: number
  /** Per-unit cost between the two smallest sizes and between the two largest: which way the runs bend. */
  lowerSlope: number
  upperSlope: number
}

/**
 * The lack-of-fit test of a line through `groups` (one per size); null with fewer than 3 sizes or no pure error
 * (every size one run), where it cannot be told.
 * @throws MeasureInputError for a size or mean that is not finite and > 0, or runs that are not an integer >= 1.
 */
export function lineLackOfFit(groups: readonly LineFitGroup[]): LineFitTest | null {
  groups.forEach((g, i) => {
    if (!(Number.isFinite(g.size) && g.size > 0 && Number.isFinite(g.mean) && g.mean > 0))
      throw new MeasureInputError(
        'line fit',
        `size ${i}: size and mean must be finite and > 0, got ${g.size}, ${g.mean}`,
      )
    if (!(Number.isInteger(g.runs) && g.runs >= 1))
      throw new MeasureInputError('line fit', `size ${i} (${g.size}): runs must be an integer >= 1, got ${g.runs}`)
  })
  const sorted = [...groups].sort((a, b) => a.size - b.size)
  const k = sorted.length
  const n = sorted.reduce((a, g) => a + g.runs, 0)
  if (k < 3 || new Set(sorted.map((g) => g.size)).size < k || n - k < 1) return null
  const w = sorted.map((g) => g.runs / g.mean ** 2)
  const line = fitWeightedLine(
    sorted.map((g) => g.size),
    sorted.map((g) => g.mean),
    w,
  )
  const lackOfFit = sorted.reduce((a, g, j) => a + w[j]! * (g.mean - line.fixed - line.perUnit * g.size) ** 2, 0)
  const pureError = sorted.reduce((a, g) => a + (g.runs > 1 ? ((g.runs - 1) * g.sd ** 2) / g.mean ** 2 : 0), 0)
  const [df1, df2] = [k - 2, n - k]
  // Relative residuals below 1e-10 are rounding, not a bend (an exact line's least squares leaves ~1e-16).
  const bends = lackOfFit > 1e-20 * n
  const f = pureError > 0 ? lackOfFit / df1 / (pureError / df2) : bends ? Number.POSITIVE_INFINITY : 0
  const slope = (a: LineFitGroup, b: LineFitGroup) => (b.mean - a.mean) / (b.size - a.size)
  return {
    f,
    df1,
    df2,
    pValue: fSurvival(f, df1, df2),
    lowerSlope: slope(sorted[0]!, sorted[1]!),
    upperSlope: slope(sorted[k - 2]!, sorted[k - 1]!),
  }
}
