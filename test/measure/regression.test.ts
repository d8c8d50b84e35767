import { describe, expect, test } from 'vitest'
import { MeasureInputError } from '../../src/measure/errors.ts'
import { compareRuns, type RegressionVerdict } from '../../src/measure/regression.ts'
import { createRandomSource } from '../../src/measure/rng.ts'
import { seeded, simulateRuns } from './support/simulate.ts'

describe('compareRuns', () => {
  test('one run a side is never a verdict', () => {
    const r = compareRuns([200], [100])
    expect(r).toMatchObject({ verdict: 'inconclusive', ratio: null, test: null })
    expect(r.reason).toMatch(/too few runs: candidate 1, baseline 1/)
  })

  test('3 runs a side is inconclusive by default (the exact test cannot reach p < 0.05 there)', () => {
    expect(compareRuns([200, 201, 202], [100, 101, 102]).verdict).toBe('inconclusive')
  })

  test('a clear slowdown beyond 10% is regressed, the mirror image improved', () => {
    const base = [100, 101, 99, 100.5, 99.5, 100.2]
    expect(compareRuns([120, 121, 119, 120.5, 119.5, 120.2], base).verdict).toBe('regressed')
    expect(compareRuns([80, 81, 79, 80.5, 79.5, 80.2], base).verdict).toBe('improved')
  })

  test('higher-is-better metrics flip the direction', () => {
    const base = [100, 101, 99, 100.5, 99.5, 100.2]
    const lower = [80, 81, 79, 80.5, 79.5, 80.2]
    expect(compareRuns(lower, base, { direction: 'higher-is-better' }).verdict).toBe('regressed')
  })

  test('a significant 5% slowdown is not regressed under the default 10% threshold', () => {
    const base = [100, 100.2, 99.8, 100.1, 99.9, 100.05, 99.95]
    const r = compareRuns(
      base.map((v) => v * 1.05),
      base,
    )
    expect(r.test!.p).toBeLessThan(0.05)
    expect(r.verdict).toBe('unchanged')
  })

  test('is reproducible for a seed', () => {
    const a = compareRuns([1, 2, 3, 4, 5], [2, 3, 4, 5, 6], { random: createRandomSource('z') })
    const b = compareRuns([1, 2, 3, 4, 5], [2, 3, 4, 5, 6], { random: createRandomSource('z') })
    expect(a).toEqual(b)
  })

  test('rejects a non-positive baseline median and an out-of-range threshold', () => {
    expect(() => compareRuns([1, 2, 3, 4], [0, 0, 0, 0])).toThrow(MeasureInputError)
    expect(() => compareRuns([1, 2, 3, 4], [1, 2, 3, 4], { threshold: 10 })).toThrow(
      /threshold: must be in \(0, 1\), got 10/,
    )
  })
})

/** Verdict counts over seeded trials: candidate mean = baseline mean x shift, CV 2%, n runs a side. */
function simulateVerdicts(shift: number, threshold: number, n: number, trials: number) {
  const random = seeded(`regression-sim/${shift}/${threshold}/${n}`)
  const counts: Record<RegressionVerdict, number> = { regressed: 0, improved: 0, unchanged: 0, inconclusive: 0 }
  for (let t = 0; t < trials; t++) {
    const candidate = simulateRuns(random, n, 100 * shift, 0.02)
    const baseline = simulateRuns(random, n, 100, 0.02)
    counts[compareRuns(candidate, baseline, { threshold, random }).verdict]++
  }
  return counts
}

describe('seeded simulation, CV 2%, 7 runs a side, practical threshold 2%', () => {
  const trials = 1000

  test('a 5% slowdown is called regressed in >= 95% of trials', () => {
    const counts = simulateVerdicts(1.05, 0.02, 7, trials)
    expect(counts.regressed / trials).toBeGreaterThanOrEqual(0.95)
  })

  test('no change is called regressed in <= 5% of trials', () => {
    const counts = simulateVerdicts(1, 0.02, 7, trials)
    expect(counts.regressed / trials).toBeLessThanOrEqual(0.05)
  })
})
