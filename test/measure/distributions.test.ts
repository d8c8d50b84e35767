import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { fSurvival, normalCdf, normalQuantile, tQuantile } from '../../src/measure/distributions.ts'

describe('t and F', () => {
  test('known values (tables): t 0.975 at 1, 4, 30 df; the F test 5% and 1% points', () => {
    expect(tQuantile(0.975, 1)).toBeCloseTo(12.706, 3)
    expect(tQuantile(0.975, 4)).toBeCloseTo(2.776, 3)
    expect(tQuantile(0.975, 30)).toBeCloseTo(2.042, 3)
    expect(fSurvival(10.13, 1, 3)).toBeCloseTo(0.05, 3)
    expect(fSurvival(5.79, 2, 5)).toBeCloseTo(0.05, 3)
    expect(fSurvival(13.27, 2, 5)).toBeCloseTo(0.01, 3)
    expect(fSurvival(0, 1, 3)).toBe(1)
    expect(fSurvival(Number.POSITIVE_INFINITY, 1, 3)).toBe(0)
  })

  test('t is symmetric about 0 and grows with p; the F tail falls as F grows', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.5, max: 0.999, noNaN: true }),
        fc.double({ min: 0.5, max: 200, noNaN: true }),
        (p, df) => {
          expect(tQuantile(1 - p, df)).toBeCloseTo(-tQuantile(p, df), 6)
          expect(tQuantile(p, df)).toBeGreaterThanOrEqual(0)
          expect(fSurvival(2, df, df + 1)).toBeGreaterThanOrEqual(fSurvival(3, df, df + 1) - 1e-12)
        },
      ),
    )
  })

  test('refuses p outside (0, 1), degrees of freedom <= 0, a negative F', () => {
    expect(() => tQuantile(1, 3)).toThrow(/p must be in \(0, 1\), got 1/)
    expect(() => tQuantile(0.5, 0)).toThrow(/degrees of freedom must be > 0, got 0/)
    expect(() => fSurvival(-1, 1, 1)).toThrow(/F must be >= 0, got -1/)
    expect(() => fSurvival(1, 1, Number.NaN)).toThrow(/degrees of freedom/)
  })
})

describe('the standard normal', () => {
  test('known values: 1.96 at 0.975, 2.498 at 0.99375 (four looks at alpha 0.05), the CDF back', () => {
    expect(normalQuantile(0.975)).toBeCloseTo(1.95996, 4)
    expect(normalQuantile(0.99375)).toBeCloseTo(2.49771, 4)
    expect(normalCdf(1.95996)).toBeCloseTo(0.975, 5)
    expect(normalCdf(Number.NEGATIVE_INFINITY)).toBe(0)
    expect(normalCdf(Number.POSITIVE_INFINITY)).toBe(1)
    expect(() => normalQuantile(0)).toThrow(/p must be in \(0, 1\)/)
  })

  test('property: the CDF inverts the quantile', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.001, max: 0.999, noNaN: true }), (p) => {
        expect(normalCdf(normalQuantile(p))).toBeCloseTo(p, 6)
      }),
    )
  })
})
