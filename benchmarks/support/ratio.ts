/**
 * A benchmark's pass/fail as a ratio measured in one run: the code under test (the subject) against a calibration of
 * the same kind of work on the same machine at the same moment (a plain write loop for the FASTA generator, a byte
 * scan for the parser, JSON.parse of the records for the report builder...). A machine half as fast takes about twice
 * as long for both, so the ratio stays where it was; a regression of the subject alone moves it. The absolute figures
 * are printed and stored beside it, never judged.
 *
 * The arms run in pairs, back to back and in alternating order (paired.ts), so drift and a neighbour's load fall on
 * both arms of a pair; the judged figure is the median over the pairs of subject cost / calibration cost, which one
 * disturbed pair cannot move.
 *
 * How each limit was set (written beside each bench with its figures): the bench run several times with
 * `npx vitest bench --project 'unit (bench)'` on a 2-core machine shared with three other builds (load 1-5), and the
 * highest median ratio of those runs times 1.15 (room for another machine and a busier moment), rounded up to the next
 * 0.05. A subject 30% slower reads 1.3 times its median: a bench catches it whenever its median was above limit / 1.3,
 * so the narrower its spread between runs, the surer; each bench says what two runs with a planted 30% did.
 * Every run without a planted slowdown measured since joins its bench's list, and a limit it passes is raised by the
 * same rule. Limits of about 1.18x one quiet run's median (2026-11-25) caught a planted 30% in 12 of 14 benches, and
 * the next day failed the monitor's 10 ms bench in two whole runs of 3 with nothing regressed: most of these ratios
 * move between runs of one quiet machine by 20-40%, so a limit that tells 30% from noise in every run does not exist
 * for them. A false FAILED is what a user believes (issue 26); a 30% that one run misses stays in the figures every run
 * stores (reports/bench.bmf.json for Bencher, github-benchmark.json), where a tracker over runs sees it.
 */
import { median } from '../../src/measure/estimators.ts'
import { toSorted } from '../../src/measure/samples.ts'

export interface RatioJudgement {
  /** Median over the pairs of subject cost / calibration cost (1.8: the subject cost 1.8 times the calibration). */
  ratio: number
  /** The lowest and highest pair's ratio: the spread within this run. */
  lowestRatio: number
  highestRatio: number
  pairs: number
  /** The largest ratio that passes, written beside each bench with the measurements it came from. */
  limit: number
  verdict: 'pass' | 'fail'
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

/**
 * Judges the pairs: pass when the median ratio is at most `limit`.
 * @throws RangeError as pairRatios does, or when `limit` is not a finite number > 0
 */
export function judgeRatio(
  subjectCosts: readonly number[],
  calibrationCosts: readonly number[],
  limit: number,
): RatioJudgement {
  if (!(Number.isFinite(limit) && limit > 0)) throw new RangeError(`judgeRatio: limit must be > 0, got ${limit}`)
  const sorted = toSorted(pairRatios(subjectCosts, calibrationCosts), 'pair ratios')
  const ratio = median(sorted)
  return {
    ratio,
    lowestRatio: sorted[0]!,
    highestRatio: sorted.at(-1)!,
    pairs: sorted.length,
    limit,
    verdict: ratio <= limit ? 'pass' : 'fail',
  }
}

/** `ratio 1.83 (pairs 1.75-1.91, n=5), limit 2.30: pass` */
export function formatJudgement(j: RatioJudgement): string {
  const r = (x: number) => x.toFixed(2)
  return `ratio ${r(j.ratio)} (pairs ${r(j.lowestRatio)}-${r(j.highestRatio)}, n=${j.pairs}), limit ${r(j.limit)}: ${j.verdict}`
}
