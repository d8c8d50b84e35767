/**
 * Quantiles and tail probabilities of Student's t, Fisher's F and the standard normal, which simple-statistics (this
 * folder's library) lacks or gives only roughly (its probit is off by 0.007 at 0.99375, its normal CDF is a table):
 * from jStat, the one module that imports it. Both take any (not only whole) degrees of freedom.
 */
import jStat from 'jstat'
import { MeasureInputError } from './errors.ts'

function validateDegrees(what: string, df: number): void {
  if (!(Number.isFinite(df) && df > 0)) throw new MeasureInputError(what, `degrees of freedom must be > 0, got ${df}`)
}

/**
 * The p-quantile of Student's t with `df` degrees of freedom (t_{0.975, 4} = 2.776).
 * @throws MeasureInputError for p outside (0, 1) or df <= 0.
 */
export function tQuantile(p: number, df: number): number {
  if (!(p > 0 && p < 1)) throw new MeasureInputError('t quantile', `p must be in (0, 1), got ${p}`)
  validateDegrees('t quantile', df)
  return jStat.studentt.inv(p, df)
}

/**
 * P(F > f) for Fisher's F with (df1, df2) degrees of freedom: an F test's p-value. f = Infinity gives 0.
 * @throws MeasureInputError for f < 0 or NaN, or df <= 0.
 */
export function fSurvival(f: number, df1: number, df2: number): number {
  if (!(f >= 0)) throw new MeasureInputError('F tail', `F must be >= 0, got ${f}`)
  validateDegrees('F tail', df1)
  validateDegrees('F tail', df2)
  if (f === Number.POSITIVE_INFINITY) return 0
  return Math.min(1, Math.max(0, 1 - jStat.centralF.cdf(f, df1, df2)))
}

/**
 * The p-quantile of the standard normal (1.96 at 0.975).
 * @throws MeasureInputError for p outside (0, 1).
 */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new MeasureInputError('normal quantile', `p must be in (0, 1), got ${p}`)
  return jStat.normal.inv(p, 0, 1)
}

/** P(Z <= x) for a standard normal Z; +-Infinity give 1 and 0. */
export function normalCdf(x: number): number {
  if (Number.isNaN(x)) throw new MeasureInputError('normal CDF', 'x is NaN')
  return Number.isFinite(x) ? jStat.normal.cdf(x, 0, 1) : x > 0 ? 1 : 0
}
