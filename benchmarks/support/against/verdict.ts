/**
 * The verdict of a bench run under `--against REV`: this checkout's subject and REV's ran as the two arms of every
 * pair, so the machine, its load and the moment are the same for both; what differs is the code. Each pair gives
 * this checkout's cost / REV's; the run fails when their median is above 1 + MIN_EFFECT (the same smallest slowdown as
 * against a baseline) and the lower end of its 90% confidence interval (order statistics; [min, max] for up to four
 * pairs) is above 1, so that one pair cannot fail it.
 */
import { medianWithCi } from '../../../src/measure/median-ci.ts'
import { toSorted } from '../../../src/measure/samples.ts'
import { MIN_EFFECT } from '../baseline/verdict.ts'
import { pairRatios } from '../ratio.ts'

export const CI_LEVEL = 0.9

export interface RevisionVerdict {
  verdict: 'pass' | 'fail'
  /** Median over the pairs of this checkout's cost / the other revision's. */
  ratio: number
  /** The confidence interval of that median (null with one pair) and its exact coverage. */
  low: number | null
  high: number | null
  coverage: number | null
  pairs: number
  /** The median that fails when the interval is above 1 too. */
  limit: number
}

/** @throws RangeError as pairRatios does */
export function judgeAgainstRevision(theseCosts: readonly number[], otherCosts: readonly number[]): RevisionVerdict {
  const sorted = toSorted(pairRatios(theseCosts, otherCosts), 'pair ratios')
  const { median, n, ci } = medianWithCi(sorted, { level: CI_LEVEL, method: 'order-statistic' })
  const limit = 1 + MIN_EFFECT
  const slower = median > limit && ci !== null && ci.low > 1
  return {
    verdict: slower ? 'fail' : 'pass',
    ratio: median,
    low: ci?.low ?? null,
    high: ci?.high ?? null,
    coverage: ci?.coverage ?? null,
    pairs: n,
    limit,
  }
}

/** `1.32x REV (90% CI 1.21-1.40, 10 pairs), limit 1.15x: FAIL` */
export function formatRevisionVerdict(v: RevisionVerdict, other: string): string {
  const ci =
    v.low === null
      ? 'one pair'
      : `${Math.round((v.coverage ?? 0) * 100)}% CI ${v.low.toFixed(2)}-${v.high!.toFixed(2)}, ${v.pairs} pairs`
  return `${v.ratio.toFixed(2)}x the cost of ${other} (${ci}), limit ${v.limit.toFixed(2)}x: ${v.verdict === 'fail' ? `FAIL, slower than ${other}` : 'pass'}`
}
