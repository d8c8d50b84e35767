/**
 * A benchmark's ratio, measured in one run: the code under test (the subject) against a calibration of the same kind
 * of work on the same machine at the same moment (a plain write loop for the FASTA generator, a byte scan for the
 * parser, JSON.parse of the records for the report builder...). The arms run in pairs, back to back and in
 * alternating order (paired.ts), so drift and a neighbour's load fall on both arms of a pair; the figure is the median
 * over the pairs of subject cost / calibration cost, which one disturbed pair cannot move.
 *
 * A machine half as fast takes about twice as long for both arms, so the ratio moves less between machines than the
 * absolute figures do, but it still moves: a calibration does not share its subject's profile (allocation, GC, memory
 * traffic), and report aggregation read 9.69 on one 2-core machine and 3.90-5.46 on another with nothing regressed
 * (issue 32). So no ratio is judged against a fixed number: a run is judged only against runs of the same machine,
 * its saved baseline (baseline/) or another revision run beside it (against/). The ratio is one of the two figures
 * that verdict reads (baseline/verdict.ts), and is printed and stored with every run.
 */
import { median } from '../../src/measure/estimators.ts'
import { toSorted } from '../../src/measure/samples.ts'

export interface RatioSummary {
  /** Median over the pairs of subject cost / calibration cost (1.8: the subject cost 1.8 times the calibration). */
  ratio: number
  /** The lowest and highest pair's ratio: the spread within this run. */
  lowestRatio: number
  highestRatio: number
  pairs: number
}

/**
 * Each pair's subject cost / calibration cost (any unit, the same for both arms: ms of wall time, us of CPU).
 * @throws RangeError when the arms have different lengths or none, or a cost is not a finite number > 0
 */
export function pairRatios(subjectCosts: readonly number[], calibrationCosts: readonly number[]): number[] {
  if (subjectCosts.length !== calibrationCosts.length || subjectCosts.length === 0)
    throw new RangeError(
      `pairRatios: needs one calibration cost per subject cost, got ${subjectCosts.length} and ${calibrationCosts.length}`,
    )
  return subjectCosts.map((subject, i) => {
    const calibration = calibrationCosts[i]!
    for (const [arm, cost] of [
      ['subject', subject],
      ['calibration', calibration],
    ] as const)
      if (!(Number.isFinite(cost) && cost > 0))
        throw new RangeError(`pairRatios: ${arm} cost of pair ${i} must be a finite number > 0, got ${cost}`)
    return subject / calibration
  })
}

/** The median pair ratio and the range of the pairs' ratios. @throws RangeError as pairRatios does */
export function summarizeRatios(subjectCosts: readonly number[], calibrationCosts: readonly number[]): RatioSummary {
  const sorted = toSorted(pairRatios(subjectCosts, calibrationCosts), 'pair ratios')
  return { ratio: median(sorted), lowestRatio: sorted[0]!, highestRatio: sorted.at(-1)!, pairs: sorted.length }
}

/** `ratio 1.83 (pairs 1.75-1.91, n=5)` */
export function formatRatios(s: RatioSummary): string {
  const r = (x: number) => x.toFixed(2)
  return `ratio ${r(s.ratio)} (pairs ${r(s.lowestRatio)}-${r(s.highestRatio)}, n=${s.pairs})`
}
