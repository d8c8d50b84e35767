import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { MAD_NORMAL_SCALE, summarize } from '../../src/measure/estimators.ts'
import { toSorted } from '../../src/measure/samples.ts'

const finiteSample = fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 60 })
const withPermutation = finiteSample.chain((values) =>
  fc.tuple(fc.constant(values), fc.shuffledSubarray(values, { minLength: values.length, maxLength: values.length })),
)

describe('summarize', () => {
  test('matches numpy (type-7 quantiles, ddof=1 sd) on a known sample', () => {
    // Reference: numpy 2.4 np.quantile(d, p) and np.std(d, ddof=1) for d below.
    const s = summarize(toSorted([1.2, 3.4, 2.2, 9.9, 5.5, 4.1, 7.7]))
    expect(s.median).toBeCloseTo(4.1, 12)
    expect(s.p5).toBeCloseTo(1.5, 12)
    expect(s.p25).toBeCloseTo(2.8, 12)
    expect(s.p75).toBeCloseTo(6.6, 12)
    expect(s.p95).toBeCloseTo(9.24, 12)
    expect(s.p99).toBeCloseTo(9.768, 12)
    expect(s.sd).toBeCloseTo(3.0837515803844853, 12)
    expect(s.mad).toBeCloseTo(1.9, 12)
    expect(s.madScaled).toBeCloseTo(1.9 * MAD_NORMAL_SCALE, 12)
  })

  test('a single run has sd 0 and all quantiles equal to it', () => {
    const s = summarize(toSorted([42]))
    expect(s).toMatchObject({ n: 1, sd: 0, mad: 0, median: 42, p5: 42, p99: 42, cv: 0 })
  })

  test('cv is null when the mean is 0', () => {
    expect(summarize(toSorted([-1, 1])).cv).toBeNull()
  })

  test('does not depend on the order of the samples', () => {
    fc.assert(
      fc.property(withPermutation, ([values, shuffled]) => {
        expect(summarize(toSorted(shuffled))).toEqual(summarize(toSorted(values)))
      }),
    )
  })

  test('scaling every sample by c > 0 scales location and spread by c and leaves cv alone', () => {
    fc.assert(
      fc.property(finiteSample, fc.double({ min: 1e-3, max: 1e3, noNaN: true }), (values, c) => {
        const a = summarize(toSorted(values))
        const b = summarize(toSorted(values.map((v) => v * c)))
        // Rounding error scales with the largest magnitude in the data, not with the (possibly cancelled) result.
        const magnitude = Math.max(1, ...values.map((v) => Math.abs(v * c)), ...values.map(Math.abs))
        const close = (x: number, y: number) => Math.abs(x - y) <= 1e-9 * magnitude
        for (const key of ['mean', 'median', 'sd', 'mad', 'p5', 'p25', 'p75', 'p95', 'min', 'max'] as const) {
          expect(close(b[key], a[key] * c)).toBe(true)
        }
        const wellConditioned = Math.abs(a.mean) > 1e-3 * Math.max(1, ...values.map(Math.abs))
        if (a.cv !== null && b.cv !== null && wellConditioned)
          expect(Math.abs(a.cv - b.cv)).toBeLessThan(1e-6 * a.cv + 1e-9)
      }),
    )
  })

  test('quantiles are ordered and lie between min and max', () => {
    fc.assert(
      fc.property(finiteSample, (values) => {
        const s = summarize(toSorted(values))
        const chain = [s.min, s.p5, s.p25, s.median, s.p75, s.p95, s.p99, s.max]
        for (let i = 1; i < chain.length; i++) expect(chain[i]! >= chain[i - 1]!).toBe(true)
      }),
    )
  })
})
