import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { createRandomSource } from '../../src/measure/rng.ts'
import { speedup } from '../../src/measure/scaling.ts'
import { seeded, simulateRuns } from './support/simulate.ts'

const around = (value: number) => [0.99, 1.0, 1.01, 0.995, 1.005].map((f) => f * value)

describe('speedup', () => {
  test('point estimate is median(T1) / median(TN), efficiency divides by N', () => {
    const r = speedup(around(1000), around(550), 2)
    expect(r.speedup.estimate).toBeCloseTo(1000 / 550, 12)
    expect(r.efficiency.estimate).toBeCloseTo(1000 / 550 / 2, 12)
    expect(r.efficiency.ci!.low).toBeCloseTo(r.speedup.ci!.low / 2, 12)
  })

  test('within the 2-GPU band passes', () => {
    expect(speedup(around(1000), around(550), 2).verdict).toBe('pass')
  })

  test('upstream-like 1.58x on 2 GPUs fails the 1.6-2.0 band when the CI is clear of it', () => {
    expect(speedup(around(3200), around(3200 / 1.45), 2).verdict).toBe('fail')
  })

  test('an open-ended band (a floor, as the optimization matrix uses) reads as a floor, not as 1-1.79e308', () => {
    const r = speedup(around(1000), around(400), 1, { band: { low: 1, high: Number.MAX_VALUE } })
    expect(r.verdict).toBe('pass')
    expect(r.reason).toMatch(/: within floor 1x$/)
  })

  test('a CI straddling the bottom of the band is inconclusive', () => {
    const noisy = (v: number) => [0.9, 1.0, 1.1, 0.95, 1.05].map((f) => f * v)
    expect(speedup(noisy(1600), noisy(1000), 2).verdict).toBe('inconclusive')
  })

  test('superlinear is flagged, not failed', () => {
    expect(speedup(around(1000), around(400), 2).verdict).toBe('flag')
  })

  test('4 and 8 GPUs use their bands; no band means no verdict', () => {
    expect(speedup(around(1000), around(280), 4)).toMatchObject({ verdict: 'pass', band: { low: 3, high: 4 } })
    expect(speedup(around(1000), around(140), 8)).toMatchObject({ verdict: 'pass', band: { low: 6, high: 8 } })
    expect(speedup(around(1000), around(400), 3)).toMatchObject({ verdict: 'inconclusive', band: null })
  })

  test('too few runs: point estimate only, inconclusive', () => {
    expect(speedup([1000, 1001], [500, 501], 2)).toMatchObject({ verdict: 'inconclusive', speedup: { ci: null } })
  })

  test('rejects a non-integer GPU count and non-positive times', () => {
    expect(() => speedup(around(1), around(1), 1.5)).toThrow(/gpuCount: must be an integer >= 1, got 1.5/)
    expect(() => speedup([0, 1, 2], around(1), 2)).toThrow(/positive/)
  })

  test('identical distributions: the speedup CI contains 1 (nearly always)', () => {
    // Property over seeded samples; with a 95% CI a miss is possible, so count misses over many cases.
    let misses = 0
    fc.assert(
      fc.property(fc.integer({ min: 5, max: 15 }), fc.string(), (n, seed) => {
        const random = seeded(`identical/${seed}/${n}`)
        const r = speedup(simulateRuns(random, n, 1000, 0.03), simulateRuns(random, n, 1000, 0.03), 1, {
          band: null,
          resamples: 2000,
          random: createRandomSource(seed),
        })
        if (!(r.speedup.ci!.low <= 1 && 1 <= r.speedup.ci!.high)) misses++
      }),
      { numRuns: 200 },
    )
    // Nominal miss rate 5%; the small-n percentile bootstrap of a ratio runs a little wide or narrow, so allow 10%.
    expect(misses / 200).toBeLessThanOrEqual(0.1)
  })

  test('scaling both sides by a constant leaves the speedup and its CI unchanged', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.001, max: 1000, noNaN: true }), (c) => {
        const a = speedup(around(1000), around(550), 2, { random: createRandomSource('s') })
        const b = speedup(around(1000 * c), around(550 * c), 2, { random: createRandomSource('s') })
        expect(b.speedup.estimate).toBeCloseTo(a.speedup.estimate, 9)
        expect(b.speedup.ci!.low).toBeCloseTo(a.speedup.ci!.low, 9)
      }),
      { numRuns: 30 },
    )
  })
})
