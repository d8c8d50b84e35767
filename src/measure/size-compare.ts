/**
 * What size models say about each other (a configuration of k GPUs against 1) and about ratios within one: the
 * speedup at any size, the break-even size (the smallest input at which the candidate is faster), the asymptotic
 * speedup (the ratio of the per-unit parts, where the fixed parts no longer count), and a ratio of two lines at a size
 * (GPU-busy time over stage time: utilization). Each with the CI of the models' draws (size-model.ts).
 *
 * What is compared is a `LineSelector`: one series (`seriesLine`), or a line built from several, such as a wall time
 * that is the sum of its parts; the selector reads the point fit and every draw alike, so sums keep their correlations.
 */
import { estimateFrom, type LineOf, type SizeEstimate, valueAt } from './size-estimate.ts'
import type { Line, SizeModel } from './size-model.ts'

/** A line read from a model's point fit or one of its draws. */
export type LineSelector = (line: LineOf) => Line

/** One series as it is. */
export const seriesLine =
  (series: string): LineSelector =>
  (line) =>
    line(series)

/** The sum of several series (e.g. the parts of a wall time). */
export const sumOfSeries =
  (series: readonly string[]): LineSelector =>
  (line) => ({
    fixed: series.reduce((a, s) => a + line(s).fixed, 0),
    perUnit: series.reduce((a, s) => a + line(s).perUnit, 0),
  })

/** A model and the line of it that is compared. */
export interface Selected {
  model: SizeModel
  select: LineSelector
}

/** base(size) / candidate(size): above 1, the candidate is faster. */
export function speedupAt(base: Selected, candidate: Selected, size: number, level = 0.95): SizeEstimate {
  return estimateFrom(
    [base.model, candidate.model],
    (b, c) => valueAt(base.select(b), size) / valueAt(candidate.select(c), size),
    level,
  )
}

/**
 * The smallest size at which `candidate` is below `base`: 0 when it is faster from the start, Infinity when it
 * never is (its per-unit cost is not lower, and its fixed cost not lower either).
 */
export function crossingSize(base: Line, candidate: Line): number {
  const fixedExtra = candidate.fixed - base.fixed
  const perUnitSaving = base.perUnit - candidate.perUnit
  if (fixedExtra <= 0) return 0
  if (perUnitSaving <= 0) return Number.POSITIVE_INFINITY
  return fixedExtra / perUnitSaving
}

/** Break-even size, with CI (the upper end is Infinity when some draws never break even). */
export function breakEvenSize(base: Selected, candidate: Selected, level = 0.95): SizeEstimate {
  return estimateFrom([base.model, candidate.model], (b, c) => crossingSize(base.select(b), candidate.select(c)), level)
}

/** base.perUnit / candidate.perUnit: the speedup as the input grows without bound. */
export function asymptoticSpeedup(base: Selected, candidate: Selected, level = 0.95): SizeEstimate {
  return estimateFrom(
    [base.model, candidate.model],
    (b, c) => base.select(b).perUnit / candidate.select(c).perUnit,
    level,
  )
}

/** numerator(size) / denominator(size) within one model, e.g. GPU-busy time over stage time: utilization. */
export function ratioAt(
  model: SizeModel,
  numerator: LineSelector,
  denominator: LineSelector,
  size: number,
): SizeEstimate {
  return estimateFrom([model], (line) => valueAt(numerator(line), size) / valueAt(denominator(line), size))
}

/** numerator.perUnit / denominator.perUnit: the ratio once the fixed parts no longer count. */
export function asymptoticRatio(
  model: SizeModel,
  numerator: LineSelector,
  denominator: LineSelector,
  level = 0.95,
): SizeEstimate {
  return estimateFrom([model], (line) => numerator(line).perUnit / denominator(line).perUnit, level)
}
