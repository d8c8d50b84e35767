/**
 * What two size models say about each other (a configuration of k GPUs against 1): the speedup at any size, the
 * break-even size (the smallest input at which the candidate is faster) and the asymptotic speedup (the ratio of the
 * work-proportional parts, where the fixed parts no longer count). Each with the CI of its draws (size-model.ts).
 */
import { estimateFrom, type Line, type SizeEstimate, type SizeModel, valueAt } from './size-model.ts'

/** base(size) / candidate(size) of one series: above 1, the candidate is faster. */
export function speedupAt(base: SizeModel, candidate: SizeModel, series: string, size: number): SizeEstimate {
  return estimateFrom([base, candidate], (b, c) => valueAt(b(series), size) / valueAt(c(series), size))
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

/** Break-even size of one series, with CI (the upper end is Infinity when some draws never break even). */
export function breakEvenSize(base: SizeModel, candidate: SizeModel, series: string): SizeEstimate {
  return estimateFrom([base, candidate], (b, c) => crossingSize(b(series), c(series)))
}

/** base.perUnit / candidate.perUnit: the speedup as the input grows without bound. */
export function asymptoticSpeedup(base: SizeModel, candidate: SizeModel, series: string): SizeEstimate {
  return estimateFrom([base, candidate], (b, c) => b(series).perUnit / c(series).perUnit)
}

/** numerator(size) / denominator(size) within one model, e.g. GPU-busy time over stage time: utilization. */
export function ratioAt(model: SizeModel, numerator: string, denominator: string, size: number): SizeEstimate {
  return estimateFrom([model], (line) => valueAt(line(numerator), size) / valueAt(line(denominator), size))
}

/** numerator.perUnit / denominator.perUnit: the ratio once the fixed parts no longer count. */
export function asymptoticRatio(model: SizeModel, numerator: string, denominator: string): SizeEstimate {
  return estimateFrom([model], (line) => line(numerator).perUnit / line(denominator).perUnit)
}
