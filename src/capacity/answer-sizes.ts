/**
 * What the answer says of its sizes and its model's error out of sample (capacity/answer.ts): the sizes fitted and
 * held out and why (capacity/structure.ts), and the misfit every interval beyond the largest size carries
 * (capacity/misfit.ts), each in one sentence.
 */
import type { CapacityStats } from './analyze.ts'
import type { SizeMisfit } from './model.ts'

const records = (n: number) => Math.round(n).toLocaleString('en-US')

/** What the measurement fitted and held out, and why, in a sentence; null for a record that kept no plan. */
export function sizesText(stats: CapacityStats): string | null {
  const s = stats.sizeChoice
  if (!s) return null
  const joined = stats.joinedHeldOut
    ? ` Its check missed, so ${records(stats.joinedHeldOut)} records joined the fit.`
    : ''
  return `Sizes: ${s.plan ? s.plan.why : 'as given (VIRNUCPRO_BENCH_SIZES)'}. ${s.heldOut ? `${s.heldOut.why}.` : 'No held-out size asked for.'}${joined}`
}

/** The misfit a configuration's intervals carry, in words. */
export function misfitText(m: SizeMisfit | null): string {
  if (m === null) return 'not seen: fewer than three sizes, so the intervals cover run-to-run noise only'
  const how =
    m.source === 'held-out'
      ? `its held-out run of ${records(m.leftOut)} sequences`
      : `${records(m.leftOut)} sequences left out and refitted from ${m.fittedSizes.map(records).join(' / ')}`
  return `${m.growthErrorPct >= 0 ? '+' : ''}${m.growthErrorPct.toFixed(1)}% of the growth it projected (${how}: measured ${(m.measuredMs / 1000).toFixed(1)} s, projected ${(m.predictedMs / 1000).toFixed(1)} s); every interval beyond the largest measured size carries that share of its growth`
}
