import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import {
  medianWithCi,
  ORDER_STATISTIC_MAX_N,
  orderStatisticRanks,
  relativeHalfWidth,
} from '../../src/measure/median-ci.ts'
import { createRandomSource } from '../../src/measure/rng.ts'
import { toSorted } from '../../src/measure/samples.ts'
import { standardNormal } from './support/simulate.ts'

describe('orderStatisticRanks', () => {
  test('gives the textbook ranks and exact coverages', () => {
    // Binomial(n, 1/2) tails: n=7 -> [x1, x7], 1 - 2/128; n=10 -> [x2, x9], 1 - 2*11/1024; n=20 -> [x6, x15].
    expect(orderStatisticRanks(7, 0.95)).toEqual({ lowRank: 1, highRank: 7, coverage: 1 - 2 / 128 })
    expect(orderStatisticRanks(10, 0.95)).toMatchObject({ lowRank: 2, highRank: 9 })
    expect(orderStatisticRanks(10, 0.95).coverage).toBeCloseTo(1 - (2 * 11) / 1024, 12)
    expect(orderStatisticRanks(20, 0.95)).toMatchObject({ lowRank: 6, highRank: 15 })
  })

  test('for n <= 5 no interval reaches 95%, and the result says so with the true coverage', () => {
    expect(orderStatisticRanks(5, 0.95)).toEqual({ lowRank: 1, highRank: 5, coverage: 1 - 2 / 32 })
  })

  test('coverage is at least the level whenever [min, max] reaches it, and ranks are symmetric', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 400 }), fc.double({ min: 0.5, max: 0.99, noNaN: true }), (n, level) => {
        const r = orderStatisticRanks(n, level)
        expect(r.lowRank + r.highRank).toBe(n + 1)
        if (1 - 2 * 0.5 ** n >= level) expect(r.coverage).toBeGreaterThanOrEqual(level - 1e-12)
      }),
    )
  })
})

describe('medianWithCi', () => {
  test('one run has a median and no CI', () => {
    expect(medianWithCi(toSorted([3]))).toEqual({ median: 3, n: 1, ci: null })
  })

  test('auto picks the order statistic up to 30 runs and the bootstrap above', () => {
    const small = toSorted(Array.from({ length: ORDER_STATISTIC_MAX_N }, (_, i) => i))
    const large = toSorted(Array.from({ length: ORDER_STATISTIC_MAX_N + 1 }, (_, i) => i))
    expect(medianWithCi(small).ci?.method).toBe('order-statistic')
    expect(medianWithCi(large).ci?.method).toBe('bootstrap-percentile')
  })

  test('the bootstrap CI is reproducible for a seed', () => {
    const sorted = toSorted(Array.from({ length: 50 }, (_, i) => Math.sin(i) * 10 + 100))
    const a = medianWithCi(sorted, { method: 'bootstrap-percentile', random: createRandomSource('x') })
    const b = medianWithCi(sorted, { method: 'bootstrap-percentile', random: createRandomSource('x') })
    expect(a).toEqual(b)
  })

  test('scaling all samples by c > 0 scales the median and CI by c (both methods)', () => {
    const sample = fc.array(fc.double({ min: 1, max: 1e4, noNaN: true }), { minLength: 2, maxLength: 60 })
    fc.assert(
      fc.property(sample, fc.double({ min: 0.01, max: 100, noNaN: true }), (values, c) => {
        for (const method of ['order-statistic', 'bootstrap-percentile'] as const) {
          const a = medianWithCi(toSorted(values), { method, resamples: 200, random: createRandomSource('k') })
          const b = medianWithCi(toSorted(values.map((v) => v * c)), {
            method,
            resamples: 200,
            random: createRandomSource('k'),
          })
          expect(b.median).toBeCloseTo(a.median * c, 6)
          expect(b.ci!.low / c).toBeCloseTo(a.ci!.low, 6)
          expect(b.ci!.high / c).toBeCloseTo(a.ci!.high, 6)
        }
      }),
      { numRuns: 50 },
    )
  })

  test('the relative half-width is (high - low) / 2 / median', () => {
    const estimate = medianWithCi(toSorted([90, 95, 100, 105, 110, 100, 100]))
    expect(relativeHalfWidth(estimate)).toBeCloseTo((110 - 90) / 2 / 100, 12)
  })
})

/** Share of seeded normal samples (true median 100) whose 95% CI contains 100. */
function coverageRate(n: number, trials: number, method: 'order-statistic' | 'bootstrap-percentile'): number {
  const random = createRandomSource(`coverage/${method}/${n}`)
  let hits = 0
  for (let t = 0; t < trials; t++) {
    const sorted = toSorted(Array.from({ length: n }, () => 100 + 5 * standardNormal(random)))
    const { ci } = medianWithCi(sorted, { method, resamples: 1000, random })
    if (ci!.low <= 100 && 100 <= ci!.high) hits++
  }
  return hits / trials
}

describe('coverage over seeded simulated samples', () => {
  // Order statistic: the exact coverage is known, so the simulated rate must match it within 3 binomial standard errors.
  test.each([7, 10, 20, 30])('order statistic, n = %i, covers at its stated exact rate', (n) => {
    const trials = 4000
    const stated = orderStatisticRanks(n, 0.95).coverage
    const rate = coverageRate(n, trials, 'order-statistic')
    expect(Math.abs(rate - stated)).toBeLessThan(3 * Math.sqrt((stated * (1 - stated)) / trials))
  })

  // Bootstrap percentile of the median: approximately nominal only. Band 0.92-0.98 for n = 40 and 100, 1000 trials
  // (3 binomial SE is 0.021 at 0.95); a discrete-median bootstrap tends to over-cover slightly here, not under.
  test.each([40, 100])('bootstrap percentile covers at about 95 percent, n = %i', (n) => {
    const rate = coverageRate(n, 1000, 'bootstrap-percentile')
    expect(rate).toBeGreaterThan(0.92)
    expect(rate).toBeLessThan(0.98)
  })
})
