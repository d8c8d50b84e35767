// The verdict of a bench run against this machine's baseline (benchmarks/support/baseline/verdict.ts): a run like the
// baseline's runs passes at the stated rate, a 30% slower subject fails, and the figure the baseline keeps steadier
// judges.
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import {
  ALPHA,
  BASELINE_RUNS,
  CONFIRM_EFFECT,
  judgeAgainstBaseline,
  MIN_EFFECT,
  type PairedCosts,
  runFigures,
  shiftLimit,
  UNKNOWN_SPREAD,
} from '../../../benchmarks/support/baseline/verdict.ts'
import { createRandomSource, type RandomSource } from '../../../src/measure/rng.ts'

function normal(random: RandomSource): number {
  let u = 0
  while (u === 0) u = random()
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random())
}

/** How runs of one bench vary on a machine: log-normal factors a run and a pair, per arm. */
interface Machine {
  /** Between runs: the subject's cost and the calibration's move by these SDs (of the log). */
  subjectRunSd: number
  calibrationRunSd: number
  /** Between the pairs of one run. */
  pairSd: number
  pairs: number
}

/** One run's pairs; `slowdown` multiplies every subject cost (1.3: the planted 30%). */
function drawRun(machine: Machine, random: RandomSource, slowdown = 1): PairedCosts {
  const subjectRun = Math.exp(machine.subjectRunSd * normal(random))
  const calibrationRun = Math.exp(machine.calibrationRunSd * normal(random))
  const pair = () => Math.exp(machine.pairSd * normal(random))
  return {
    subjectCosts: Array.from({ length: machine.pairs }, () => 250 * subjectRun * pair() * slowdown),
    calibrationCosts: Array.from({ length: machine.pairs }, () => 100 * calibrationRun * pair()),
  }
}

/** Fails out of `trials` runs drawn against a baseline of `runs` runs, each trial with a fresh baseline. */
function failRate(machine: Machine, runs: number, trials: number, seed: number, slowdown: number): number {
  const random = createRandomSource(seed)
  let fails = 0
  for (let t = 0; t < trials; t++) {
    const baseline = Array.from({ length: runs }, () => drawRun(machine, random))
    if (judgeAgainstBaseline(baseline, drawRun(machine, random, slowdown)).verdict === 'fail') fails++
  }
  return fails / trials
}

/**
 * Machines whose runs spread by at most about `maxSd` in the subject's cost (its run factor up to 0.8 `maxSd`, the
 * pairs' noise up to `maxSd` with 5 pairs or more), the calibration's run factor up to 1.5 `maxSd`: the ratio spreads
 * more than the cost or about as much, so either may judge.
 */
const machines = (maxSd: number) =>
  fc.record({
    subjectRunSd: fc.double({ min: 0, max: maxSd * 0.8, noNaN: true }),
    calibrationRunSd: fc.double({ min: 0, max: maxSd * 1.5, noNaN: true }),
    pairSd: fc.double({ min: 0, max: maxSd, noNaN: true }),
    pairs: fc.integer({ min: 5, max: 40 }),
  })
/** Statistical properties: a failure is reported as drawn; shrinking would re-run thousands of verdicts per step. */
const statistical = { numRuns: 8, endOnFailure: true }

describe('judgeAgainstBaseline', () => {
  test(`a run like the baseline's fails at most ALPHA (${ALPHA * 100}%) of the time, however far its runs spread`, () => {
    fc.assert(
      fc.property(machines(0.2), fc.integer({ min: BASELINE_RUNS, max: 8 }), fc.integer(), (m, runs, seed) => {
        // 1,000 draws at a true rate of 1% fail 10 +- 3 times: 20 would be a rate above ALPHA.
        expect(failRate(m, runs, 1_000, seed, 1)).toBeLessThanOrEqual(2 * ALPHA)
      }),
      statistical,
    )
  })

  test('runs spreading up to 3%: a run like them fails under 0.1% of the time, a 30% slower subject over 99%', () => {
    fc.assert(
      fc.property(machines(0.03), fc.integer({ min: BASELINE_RUNS, max: 8 }), fc.integer(), (m, runs, seed) => {
        expect(failRate(m, runs, 1_000, seed, 1)).toBeLessThanOrEqual(0.002)
        expect(failRate(m, runs, 200, seed + 1, 1.3)).toBeGreaterThanOrEqual(0.99)
      }),
      statistical,
    )
  })

  test('runs spreading up to 5%: a 30% slower subject fails at least 75% of the time', () => {
    fc.assert(
      fc.property(machines(0.05), fc.integer({ min: BASELINE_RUNS, max: 8 }), fc.integer(), (m, runs, seed) => {
        expect(failRate(m, runs, 200, seed, 1.3)).toBeGreaterThanOrEqual(0.75)
      }),
      statistical,
    )
  })

  test('a machine twice as slow in this run moves the cost, not the ratio: the ratio judges when it is the steadier', () => {
    const baseline = [1, 1.02, 0.98, 1.01, 0.99].map((k) => ({
      subjectCosts: [200 * k, 202 * k, 198 * k],
      calibrationCosts: [100 * k, 101 * k, 99 * k],
    }))
    const slowMachine = { subjectCosts: [400, 404, 396], calibrationCosts: [200, 202, 198] }
    const v = judgeAgainstBaseline(baseline, slowMachine)
    expect(v.judgedBy).toBe('ratio')
    expect(v.cost.shift).toBeCloseTo(2, 1)
    expect(v.ratio.shift).toBeCloseTo(1, 2)
    expect(v.verdict).toBe('pass')
  })

  test('a calibration that moves between runs leaves the judging to the cost', () => {
    const baseline = [1, 1.4, 0.7, 1.2, 0.85].map((k) => ({
      subjectCosts: [200, 201, 199],
      calibrationCosts: [100 * k, 100 * k, 100 * k],
    }))
    const v = judgeAgainstBaseline(baseline, { subjectCosts: [200, 200, 200], calibrationCosts: [60, 60, 60] })
    expect(v.judgedBy).toBe('cost')
    expect(v.ratio.shift).toBeGreaterThan(1.5)
    expect(v.verdict).toBe('pass')
    const slower = judgeAgainstBaseline(baseline, { subjectCosts: [260, 261, 259], calibrationCosts: [100, 100, 100] })
    expect(slower).toMatchObject({ verdict: 'fail', judgedBy: 'cost', confirmed: true })
    expect(slower.shift).toBeCloseTo(1.3, 2)
  })

  test('a judged figure that moves while the other stays where it was is not a slowdown of the code', () => {
    // The cost looked steady over five runs; now it reads 30% higher and the ratio does not follow.
    const baseline = [1, 1.01, 0.99, 1.005, 0.995].map((k, i) => ({
      subjectCosts: [10 * k, 10 * k],
      calibrationCosts: [5 * k * (1 + 0.05 * (i - 2)), 5 * k * (1 + 0.05 * (i - 2))],
    }))
    const alone = judgeAgainstBaseline(baseline, { subjectCosts: [13, 13], calibrationCosts: [6.6, 6.6] })
    expect(alone).toMatchObject({ judgedBy: 'cost', verdict: 'pass', confirmed: false })
    expect(alone.shift).toBeGreaterThan(alone.limit)
    expect(alone.ratio.shift).toBeLessThan(1 + CONFIRM_EFFECT)
    const both = judgeAgainstBaseline(baseline, { subjectCosts: [13, 13], calibrationCosts: [5, 5] })
    expect(both).toMatchObject({ judgedBy: 'cost', verdict: 'fail', confirmed: true })
  })

  test(`with fewer than BASELINE_RUNS (${BASELINE_RUNS}) runs both figures must show the slowdown, past UNKNOWN_SPREAD's limit`, () => {
    const one = [{ subjectCosts: [200, 200], calibrationCosts: [100, 100] }]
    const limit = shiftLimit(1, null)
    // The standard normal's 99% quantile, 2.326: the spread unknown, the level the same as with a baseline.
    expect(limit).toBeCloseTo(Math.exp(2.3263478740408408 * UNKNOWN_SPREAD * Math.SQRT2), 9)
    const costOnly = judgeAgainstBaseline(one, { subjectCosts: [400, 400], calibrationCosts: [200, 200] })
    expect(costOnly).toMatchObject({ judgedBy: 'both', verdict: 'pass' })
    const both = judgeAgainstBaseline(one, { subjectCosts: [400, 400], calibrationCosts: [100, 100] })
    expect(both).toMatchObject({ judgedBy: 'both', verdict: 'fail', shift: 2 })
  })

  test('the limit is never under 1 + MIN_EFFECT, and widens with the spread and with fewer runs', () => {
    expect(shiftLimit(5, 0)).toBeCloseTo(1 + MIN_EFFECT, 12)
    expect(shiftLimit(5, 0.1)).toBeGreaterThan(shiftLimit(5, 0.05))
    expect(shiftLimit(5, 0.1)).toBeGreaterThan(shiftLimit(9, 0.1))
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.double({ min: 0, max: 1, noNaN: true }), (runs, sd) => {
        expect(shiftLimit(runs, sd)).toBeGreaterThanOrEqual(1 + MIN_EFFECT)
      }),
    )
  })

  test('an empty baseline or a run with bad costs is refused, naming what', () => {
    expect(() => judgeAgainstBaseline([], { subjectCosts: [1], calibrationCosts: [1] })).toThrow(/holds no run/)
    expect(() => runFigures({ subjectCosts: [1, 2], calibrationCosts: [1] })).toThrow(/got 2 and 1/)
    expect(() => runFigures({ subjectCosts: [0], calibrationCosts: [1] })).toThrow(/subject cost of pair 0/)
  })
})
